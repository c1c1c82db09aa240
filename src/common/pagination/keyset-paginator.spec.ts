import type { ScopedToCaller } from '../caller-claims';
import { ProblemException } from '../errors/problem';
import { callerClaims } from '../testing/caller.fixture';
import { CursorCodec } from './cursor-codec';
import { CursorSecret } from './cursor-secret';
import { readKeysetPage } from './keyset-paginator';
import type { KeysetResource, KeysetSlice } from './keyset-resource';
import type { PageQuery } from './page-query';

const cursors = new CursorCodec(new CursorSecret(Buffer.from('a-cursor-secret-for-unit-specs')));

const CALLER = callerClaims({ shopCodes: ['S2', 'S1'] });

interface ThingRow {
  id: number;
}

/** A reader scoped to a caller that answers `slice` and records the queries it was given. */
function scoped(slice: KeysetSlice<ThingRow>, caller = CALLER) {
  const queries: PageQuery[] = [];
  const reader = {
    caller,
    things: (query: PageQuery) => (queries.push(query), Promise.resolve(slice)),
  };
  return { queries, reader };
}

type ThingReader = ScopedToCaller & ReturnType<typeof scoped>['reader'];

const THINGS: KeysetResource<ThingReader, ThingRow, { id: string }> = {
  name: 'things',
  read: (reader, query) => reader.things(query),
  toRecord: (row) => ({ id: String(row.id) }),
};

const rows = (...ids: number[]): ThingRow[] => ids.map((id) => ({ id }));

describe(readKeysetPage.name, () => {
  it('should read the parsed query through the scoped reader and answer the last page without a cursor', async () => {
    const { queries, reader } = scoped({ rows: rows(1, 2), next: null });
    const page = await readKeysetPage(THINGS, reader, { limit: '2', shopcode: 'S1' }, cursors);
    expect(page).toEqual({ data: [{ id: '1' }, { id: '2' }], nextCursor: null });
    expect(queries).toEqual([{ shopCode: 'S1', from: null, to: null, limit: 2, after: null }]);
  });

  it('should ask for 500 rows when no Limit is given', async () => {
    const { queries, reader } = scoped({ rows: [], next: null });
    await readKeysetPage(THINGS, reader, {}, cursors);
    expect(queries[0].limit).toBe(500);
  });

  it('should sign a cursor for the position the read stopped at, with the filters of the query', async () => {
    const next = { time: '2026-03-01 10:00:02.000', id: '9007199254740993' };
    const { reader } = scoped({ rows: rows(1, 2), next });
    const page = await readKeysetPage(
      THINGS,
      reader,
      { Limit: '2', ShopCode: 'S1', From: '2026-03-01' },
      cursors,
    );
    expect(page.data).toEqual([{ id: '1' }, { id: '2' }]);
    expect(cursors.decode(page.nextCursor as string)).toEqual({
      resource: 'things',
      subject: '7',
      shopCode: 'S1',
      from: '2026-03-01 00:00:00.000',
      to: null,
      afterTime: next.time,
      afterId: next.id,
    });
  });

  it('should continue from the position its cursor carries, with the filters of the cursor', async () => {
    const next = { time: '2026-03-01 10:00:01.000', id: '1' };
    const first = await readKeysetPage(
      THINGS,
      scoped({ rows: rows(1), next }).reader,
      { Limit: '1', ShopCode: 'S1', To: '2026-03-02' },
      cursors,
    );
    const { queries, reader } = scoped({ rows: rows(2), next: null });
    const second = await readKeysetPage(
      THINGS,
      reader,
      { Cursor: first.nextCursor as string },
      cursors,
    );
    expect(second).toEqual({ data: [{ id: '2' }], nextCursor: null });
    expect(queries).toEqual([
      { shopCode: 'S1', from: null, to: '2026-03-02 00:00:00.000', limit: 500, after: next },
    ]);
  });

  it("should refuse another caller's cursor before reading anything", async () => {
    const first = await readKeysetPage(
      THINGS,
      scoped({ rows: rows(1), next: { time: 't', id: '1' } }).reader,
      { Limit: '1' },
      cursors,
    );
    const { queries, reader } = scoped({ rows: rows(2), next: null }, { ...CALLER, userId: '8' });
    await expect(
      readKeysetPage(THINGS, reader, { Cursor: first.nextCursor as string }, cursors),
    ).rejects.toBeInstanceOf(ProblemException);
    expect(queries).toHaveLength(0);
  });

  it('should refuse a cursor of another resource before reading anything', async () => {
    const first = await readKeysetPage(
      THINGS,
      scoped({ rows: rows(1), next: { time: 't', id: '1' } }).reader,
      {},
      cursors,
    );
    const { queries, reader } = scoped({ rows: [], next: null });
    const others = { ...THINGS, name: 'others' };
    await expect(
      readKeysetPage(others, reader, { Cursor: first.nextCursor as string }, cursors),
    ).rejects.toBeInstanceOf(ProblemException);
    expect(queries).toHaveLength(0);
  });
});
