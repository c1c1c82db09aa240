import { ProblemException } from '../../common/errors/problem';
import { CursorCodec } from './cursor-codec';
import { CursorSecret } from '../../common/cursor-secret';
import { callerClaims } from '../../common/testing/caller.fixture';
import { FEED } from '../feed/feed.mode';
import { LIST } from '../list/list.mode';
import type { ModeQuery } from './mode';
import { type PagedEndpoint, pagedEndpoint } from './paged-endpoint';
import { Paginator } from './paginator';
import type { CallerClaims } from '../../common/caller-claims';
import type { Wall } from '../../wall/wall';
import { col, defineSource } from '../../catalogue/source';

const cursors = new CursorCodec(new CursorSecret(Buffer.from('a-cursor-secret-for-unit-specs')));

const CALLER = callerClaims({ shopCodes: ['S2', 'S1'] });

const SOURCE = defineSource({
  table: 'things',
  columns: { id: col.id, at: col.text },
  time: 'at',
  arrivedAt: 'created_at',
});
const toRecord = (row: { id: string }) => ({ id: `#${row.id}` });
const THINGS = pagedEndpoint('things', LIST, SOURCE, toRecord);
const THINGS_FEED = pagedEndpoint('things', FEED, SOURCE, toRecord);

/** A caller, and a wall that answers `slice` and records the queries it was given for them. */
interface Scoped {
  caller: CallerClaims;
  wall: Wall;
}
function scoped(slice: object, caller = CALLER): { queries: ModeQuery[]; reader: Scoped } {
  const queries: ModeQuery[] = [];
  const wall = {
    read: (asked: CallerClaims, _mode: unknown, _source: unknown, query: ModeQuery) => {
      expect(asked).toBe(caller);
      queries.push(query);
      return Promise.resolve(slice);
    },
  } as unknown as Wall;
  return { queries, reader: { caller, wall } };
}

/** One page of `endpoint` for the reader's caller, through a Paginator over its wall. */
function readPage<Q extends ModeQuery, X extends object, E extends object>(
  endpoint: PagedEndpoint<Q, X, E, { id: string; at: string }, { id: string }>,
  { caller, wall }: Scoped,
  raw: Record<string, string>,
  codec: CursorCodec,
) {
  return new Paginator(codec, wall).read(endpoint, caller, raw);
}

const rows = (...ids: number[]) => ids.map((id) => ({ id: String(id), at: 'T' }));

describe(Paginator.name, () => {
  it('should read the parsed query through the scoped reader and answer the last page without a cursor', async () => {
    const { queries, reader } = scoped({ rows: rows(1, 2), next: null });
    const page = await readPage(THINGS, reader, { limit: '2', shopcode: 'S1' }, cursors);
    expect(page).toEqual({ data: [{ id: '#1' }, { id: '#2' }], nextCursor: null });
    expect(queries).toEqual([
      { shopCode: 'S1', from: null, to: null, businessDates: null, limit: 2, after: null },
    ]);
  });

  it('should ask for 500 rows when no Limit is given', async () => {
    const { queries, reader } = scoped({ rows: [], next: null });
    await readPage(THINGS, reader, {}, cursors);
    expect(queries[0].limit).toBe(500);
  });

  it('should sign a cursor for the position the read stopped at, with the filters of the query', async () => {
    const next = { time: '2026-03-01 10:00:02.000', id: '9007199254740993' };
    const { reader } = scoped({ rows: rows(1, 2), next });
    const raw = { Limit: '2', ShopCode: 'S1', From: '2026-03-01' };
    const page = await readPage(THINGS, reader, raw, cursors);
    expect(page.data).toEqual([{ id: '#1' }, { id: '#2' }]);
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
    const raw = { Limit: '1', ShopCode: 'S1', To: '2026-03-02' };
    const first = await readPage(THINGS, scoped({ rows: rows(1), next }).reader, raw, cursors);
    const { queries, reader } = scoped({ rows: rows(2), next: null });
    const second = await readPage(THINGS, reader, { Cursor: first.nextCursor as string }, cursors);
    expect(second).toEqual({ data: [{ id: '#2' }], nextCursor: null });
    expect(queries).toEqual([
      {
        shopCode: 'S1',
        from: null,
        to: '2026-03-02 00:00:00.000',
        businessDates: null,
        limit: 500,
        after: next,
      },
    ]);
  });

  it("should refuse another caller's cursor before reading anything", async () => {
    const next = { time: 't', id: '1' };
    const first = await readPage(THINGS, scoped({ rows: rows(1), next }).reader, {}, cursors);
    const { queries, reader } = scoped({ rows: rows(2), next: null }, { ...CALLER, userId: '8' });
    await expect(
      readPage(THINGS, reader, { Cursor: first.nextCursor as string }, cursors),
    ).rejects.toBeInstanceOf(ProblemException);
    expect(queries).toHaveLength(0);
  });

  it('should refuse a cursor of another resource, or of another mode, before reading anything', async () => {
    const next = { time: 't', id: '1' };
    const first = await readPage(THINGS, scoped({ rows: rows(1), next }).reader, {}, cursors);
    const others = pagedEndpoint('others', LIST, SOURCE, toRecord);
    const refused = async (read: (reader: Scoped) => Promise<unknown>) => {
      const { queries, reader } = scoped({ rows: [], next: null, position: '0', caughtUp: true });
      await expect(read(reader)).rejects.toBeInstanceOf(ProblemException);
      expect(queries).toHaveLength(0);
    };
    const raw = { Cursor: first.nextCursor as string };
    await refused((reader) => readPage(others, reader, raw, cursors));
    await refused((reader) => readPage(THINGS_FEED, reader, raw, cursors));
  });

  it('should answer a feed page with a cursor of its position, never null, and caughtUp', async () => {
    const { queries, reader } = scoped({ rows: rows(4), position: '4', caughtUp: true });
    const raw = { ShopCode: 'S1', From: '2026-06-02' };
    const page = await readPage(THINGS_FEED, reader, raw, cursors);
    expect(page).toMatchObject({ data: [{ id: '#4' }], caughtUp: true });
    expect(queries).toEqual([
      { shopCode: 'S1', since: '2026-06-02 00:00:00.000', afterId: null, limit: 500, wait: 0 },
    ]);
    expect(cursors.decode(page.nextCursor)).toEqual({
      resource: 'things/feed',
      subject: '7',
      shopCode: 'S1',
      from: '2026-06-02 00:00:00.000',
      to: null,
      afterTime: '',
      afterId: '4',
    });
  });
});
