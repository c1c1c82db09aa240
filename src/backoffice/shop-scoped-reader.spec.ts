import type { PrimaryReader } from '../database/replicas/read-router';
import type { Row, SqlReader } from '../database/sql-reader';
import { callerClaims } from '../common/testing/caller.fixture';
import type { PageQuery } from './modes/list.mode';
import { ShopScopedReader, ShopScopedReaders } from './shop-scoped-reader';
import { col, defineSource, withAttached } from './source';
import type { FeedQuery } from './sql/arrival-reader';

/** Two sources as a resource declares them: one plain, one whose rows get their parts. */
const THINGS = defineSource({
  table: 'things',
  columns: { id: col.id, at: col.text },
  time: 'at',
  arrivedAt: 'created_at',
});
const ORDERS = withAttached(
  defineSource({ table: 'orders', columns: { id: col.id, at: col.text }, time: 'at' }),
  {
    as: 'parts',
    table: 'order_parts',
    parentId: 'order_id',
    columns: { order_id: col.id, part_no: col.integer },
    orderBy: ['part_no'],
  },
);

const thing = (id: string): Row => ({ id, at: '2026-03-01 10:00:00.000', k_t: 'T', k_id: id });
const part = (orderId: string, partNo: number): Row => ({ order_id: orderId, part_no: partNo });

/**
 * A database behind ReadRouter: answers the parts query with `parts`, every other query with
 * `rows`, and records every query with the reader it came through (0: the primary).
 */
function database(rows: Row[] = [], parts: Row[] = []) {
  const queries: Array<{ reader: number; sql: string; params: unknown[] }> = [];
  let readers = 0;
  const reads = {
    reader: (): SqlReader => answering(++readers),
    withPrimary: <T>(work: (db: PrimaryReader) => Promise<T>): Promise<T> =>
      work({ ...answering(0), uncommitted: null }),
  };
  function answering(reader: number): SqlReader {
    return {
      query: (sql, params) => {
        queries.push({ reader, sql, params });
        if (sql.includes('FROM order_parts')) return Promise.resolve(parts);
        return Promise.resolve(rows.map((r) => ({ ...r })));
      },
    };
  }
  return { queries, readers: new ShopScopedReaders(reads) };
}

const query = (overrides: Partial<PageQuery> = {}): PageQuery => ({
  shopCode: null,
  from: null,
  to: null,
  after: null,
  limit: 500,
  ...overrides,
});

const feedOf = (q: PageQuery): FeedQuery => ({
  shopCode: q.shopCode,
  since: null,
  afterId: null,
  limit: q.limit,
  wait: 0,
});

/** Every read a ShopScopedReader offers for a query, in each mode, as one list. */
const everyRead = (reader: ShopScopedReader, q: PageQuery) => [
  reader.page(THINGS, q),
  reader.page(ORDERS, q),
  reader.feed(THINGS, feedOf(q)),
  reader.feed(ORDERS, feedOf(q)),
];

describe(ShopScopedReader.name, () => {
  it('should read nothing and run no query for a shop outside the claims', async () => {
    const { queries, readers } = database([thing('1')]);
    const reader = readers.for(callerClaims({ shopCodes: ['SHOP1'] }));
    const results = await Promise.all(everyRead(reader, query({ shopCode: 'SHOP9' })));
    expect(results.map((r) => r.rows)).toEqual([[], [], [], []]);
    expect(queries).toHaveLength(0);
  });

  it('should compare shop codes exactly: another case is another shop', async () => {
    const { queries, readers } = database([thing('1')]);
    const reader = readers.for(callerClaims({ shopCodes: ['SHOP1'] }));
    await Promise.all(everyRead(reader, query({ shopCode: 'shop1' })));
    expect(queries).toHaveLength(0);
  });

  it('should read nothing, and run no query, for a token without shops', async () => {
    const { queries, readers } = database([thing('1')]);
    const reader = readers.for(callerClaims({ shopCodes: [] }));
    await Promise.all([...everyRead(reader, query()), reader.shops()]);
    expect(queries).toHaveLength(0);
  });

  it('should read every claimed shop once, in code order, when no ShopCode is given', async () => {
    const { queries, readers } = database();
    await readers.for(callerClaims({ shopCodes: ['S2', 'S1', 'S2'] })).page(THINGS, query());
    expect(queries[0].sql).toContain('FROM things s');
    expect(queries[0].params.filter((p) => typeof p === 'string')).toEqual(['S1', 'S2']);
  });

  it('should read only the claimed shop a ShopCode asks for, in every mode', async () => {
    const { queries, readers } = database();
    const reader = readers.for(callerClaims({ shopCodes: ['S1', 'S2'] }));
    await reader.page(THINGS, query({ shopCode: 'S2' }));
    await reader.feed(THINGS, feedOf(query({ shopCode: 'S2' })));
    expect(queries.map((q) => q.sql.slice(0, 40))).toEqual([
      expect.stringContaining('SELECT CAST(x.id AS CHAR) AS id, x.at'),
      expect.stringContaining('SELECT CAST(x.id AS CHAR) AS id, x.at'),
    ]);
    expect(queries.map((q) => q.params.filter((p) => typeof p === 'string'))).toEqual([
      ['S2'],
      ['S2'],
    ]);
  });

  it('should give a page the rows its source attaches with one query, through the reader of the page', async () => {
    const parts = [part('7', 1), part('7', 2), part('9007199254740993', 1)];
    const { queries, readers } = database(
      [thing('7'), thing('8'), thing('9007199254740993')],
      parts,
    );
    const page = await readers.for(callerClaims()).page(ORDERS, query({ shopCode: 'SHOP1' }));
    expect(queries.map((q) => q.reader)).toEqual([1, 1]);
    expect(queries[1].sql).toBe(
      'SELECT CAST(c.order_id AS CHAR) AS order_id, c.part_no FROM order_parts c ' +
        'WHERE c.order_id IN (?, ?, ?) ORDER BY c.order_id, c.part_no',
    );
    expect(queries[1].params).toEqual([7n, 8n, 9007199254740993n]);
    expect(page.rows.map((o) => o.parts.map((p) => p.part_no))).toEqual([[1, 2], [], [1]]);
  });

  it('should read the feeds from the primary, never a replica, with what the source attaches', async () => {
    const { queries, readers } = database([thing('7')], [part('7', 1)]);
    const slice = await readers
      .for(callerClaims())
      .feed(ORDERS, { shopCode: 'SHOP1', since: null, afterId: '6', limit: 500, wait: 0 });
    expect(queries.map((q) => q.reader)).toEqual([0, 0]);
    expect(queries[0].sql).toMatch(
      /FROM orders x WHERE x\.shop_code = \? AND x\.id > \? ORDER BY x\.id/,
    );
    expect(queries[0].params).toEqual(['SHOP1', 6n, 501]);
    expect(slice).toMatchObject({ position: '7', caughtUp: true });
    expect(slice.rows[0].parts).toHaveLength(1);
  });

  it('should list the claimed shops the back office knows, in code order', async () => {
    const shop = { code: 'A', name: 'Shop A', time_zone: 'Europe/Madrid', currency: 'EUR' };
    const { queries, readers } = database([shop]);
    const shops = await readers.for(callerClaims({ shopCodes: ['B', 'A'] })).shops();
    expect(shops).toEqual([shop]);
    expect(queries[0].sql).toMatch(/FROM bo_shops\s+WHERE code IN \(\?, \?\) ORDER BY code/);
    expect(queries[0].params).toEqual(['A', 'B']);
  });
});
