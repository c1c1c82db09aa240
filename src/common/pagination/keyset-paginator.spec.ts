import { SigningKeys } from '../../auth/keys/signing-keys';
import { AppConfig } from '../../config/app-config';
import { ProblemException } from '../errors/problem';
import { callerClaims } from '../testing/caller.fixture';
import { CursorCodec } from './cursor-codec';
import { readKeysetPage } from './keyset-paginator';
import type { KeysetResource, Row, SqlReader } from './keyset-resource';

const cursors = new CursorCodec(
  Object.assign(new AppConfig(), { CURSOR_SECRET: 'a-cursor-secret-for-unit-specs' }),
  new SigningKeys('HS256', 'k', 'a-signing-secret-of-at-least-32-chars!', new Map()),
);

const CALLER = callerClaims({ shopCodes: ['S2', 'S1'] });

interface Thing {
  id: string;
  children?: number;
}

const THINGS: KeysetResource<Thing> = {
  name: 'things',
  table: 'pos_things',
  timeColumn: 'at',
  select: 'x.id',
  toRecord: (row) => ({ id: String(row.id) }),
};

/** Row `n` as the keyset query returns it: the record's columns plus k_t and k_id. */
const row = (n: number): Row => ({
  id: n,
  k_t: `2026-03-01 10:00:0${n}.000`,
  k_id: String(n),
});

/** A reader answering `rows` to every query, recording what it was asked. */
function reader(rows: Row[]) {
  const calls: Array<{ sql: string; params: unknown[] }> = [];
  const db: SqlReader = {
    query: (sql, params) => {
      calls.push({ sql, params });
      return Promise.resolve(rows.map((r) => ({ ...r })));
    },
  };
  return { calls, db };
}

describe(readKeysetPage.name, () => {
  it('should ask for limit + 1 rows and answer the last page without a cursor', async () => {
    const { calls, db } = reader([row(1), row(2)]);
    const page = await readKeysetPage(THINGS, CALLER, { Limit: '2' }, db, cursors);
    expect(page).toEqual({ data: [{ id: '1' }, { id: '2' }], nextCursor: null });
    expect(calls).toHaveLength(1);
    expect(calls[0].params.at(-1)).toBe(3);
  });

  it('should drop the extra row and sign a cursor after the last row it returns', async () => {
    const { db } = reader([row(1), row(2), row(3)]);
    const page = await readKeysetPage(
      THINGS,
      CALLER,
      { Limit: '2', ShopCode: 'S1', From: '2026-03-01' },
      db,
      cursors,
    );
    expect(page.data).toEqual([{ id: '1' }, { id: '2' }]);
    expect(cursors.decode(page.nextCursor as string)).toEqual({
      resource: 'things',
      subject: '7',
      shopCode: 'S1',
      from: '2026-03-01 00:00:00.000',
      to: null,
      afterTime: '2026-03-01 10:00:02.000',
      afterId: '2',
    });
  });

  it('should continue from the position its cursor carries, with the filters of the cursor', async () => {
    const first = await readKeysetPage(
      THINGS,
      CALLER,
      { Limit: '1', ShopCode: 'S1' },
      reader([row(1), row(2)]).db,
      cursors,
    );
    const { calls, db } = reader([row(2)]);
    const second = await readKeysetPage(
      THINGS,
      CALLER,
      { Cursor: first.nextCursor as string },
      db,
      cursors,
    );
    expect(second).toEqual({ data: [{ id: '2' }], nextCursor: null });
    expect(calls[0].params).toEqual(expect.arrayContaining(['S1', '2026-03-01 10:00:01.000', 1n]));
  });

  it('should read every shop of the claims when no ShopCode is given', async () => {
    const { calls, db } = reader([]);
    await readKeysetPage(THINGS, CALLER, {}, db, cursors);
    expect(calls[0].params.filter((p) => typeof p === 'string')).toEqual(['S1', 'S2']);
  });

  it('should answer an empty page without a query for a shop outside the claims', async () => {
    const { calls, db } = reader([row(1)]);
    const page = await readKeysetPage(THINGS, CALLER, { ShopCode: 'OTHER' }, db, cursors);
    expect(page).toEqual({ data: [], nextCursor: null });
    expect(calls).toHaveLength(0);
  });

  it('should answer an empty page without a query when From equals To', async () => {
    const { calls, db } = reader([row(1)]);
    const period = { From: '2026-03-01T10:00', To: '2026-03-01T10:00' };
    await expect(readKeysetPage(THINGS, CALLER, period, db, cursors)).resolves.toEqual({
      data: [],
      nextCursor: null,
    });
    expect(calls).toHaveLength(0);
  });

  it('should attach children once per page, and not to an empty page', async () => {
    const attached: Thing[][] = [];
    const withChildren: KeysetResource<Thing> = {
      ...THINGS,
      attachChildren: (records) => {
        attached.push(records);
        return Promise.resolve();
      },
    };
    await readKeysetPage(
      withChildren,
      CALLER,
      { Limit: '1' },
      reader([row(1), row(2)]).db,
      cursors,
    );
    await readKeysetPage(withChildren, CALLER, {}, reader([]).db, cursors);
    expect(attached).toEqual([[{ id: '1' }]]);
  });

  it("should refuse another caller's cursor before reading anything", async () => {
    const first = await readKeysetPage(
      THINGS,
      CALLER,
      { Limit: '1' },
      reader([row(1), row(2)]).db,
      cursors,
    );
    const { calls, db } = reader([row(2)]);
    const other = { ...CALLER, userId: '8' };
    await expect(
      readKeysetPage(THINGS, other, { Cursor: first.nextCursor as string }, db, cursors),
    ).rejects.toBeInstanceOf(ProblemException);
    expect(calls).toHaveLength(0);
  });
});
