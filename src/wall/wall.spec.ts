import * as otel from '@opentelemetry/api';
import { recordedSpans } from '../common/testing/recorded-spans';
import type { PrimaryReader } from '../database/replicas/read-router';
import type { Row, SqlReader } from '../database/sql-reader';
import { callerClaims } from '../common/testing/caller.fixture';
import { FEED_READ } from './feed-read';
import { LIST_READ, type PageQuery } from './list-read';
import { Wall } from './wall';
import { col, defineSource, withAttached } from '../catalogue/source';
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
      dialect: 'mysql',
      query: (sql, params) => {
        queries.push({ reader, sql, params });
        if (sql.includes('FROM order_parts')) return Promise.resolve(parts);
        return Promise.resolve(rows.map((r) => ({ ...r })));
      },
    };
  }
  return { queries, wall: new Wall(reads) };
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

type Caller = ReturnType<typeof callerClaims>;

/** Every read of the modes through the wall for a caller and a query, as one list. */
const everyRead = (wall: Wall, caller: Caller, q: PageQuery) => [
  wall.read(caller, LIST_READ, THINGS, q),
  wall.read(caller, LIST_READ, ORDERS, q),
  wall.read(caller, FEED_READ, THINGS, feedOf(q)),
  wall.read(caller, FEED_READ, ORDERS, feedOf(q)),
];

describe(Wall.name, () => {
  it('should read nothing and run no query for a shop outside the claims', async () => {
    const { queries, wall } = database([thing('1')]);
    const caller = callerClaims({ shopCodes: ['SHOP1'] });
    const results = await Promise.all(everyRead(wall, caller, query({ shopCode: 'SHOP9' })));
    expect(results.map((r) => r.rows)).toEqual([[], [], [], []]);
    expect(queries).toHaveLength(0);
  });

  it('should compare shop codes exactly: another case is another shop', async () => {
    const { queries, wall } = database([thing('1')]);
    const caller = callerClaims({ shopCodes: ['SHOP1'] });
    await Promise.all(everyRead(wall, caller, query({ shopCode: 'shop1' })));
    expect(queries).toHaveLength(0);
  });

  it('should read nothing, and run no query, for a token without shops', async () => {
    const { queries, wall } = database([thing('1')]);
    const caller = callerClaims({ shopCodes: [] });
    await Promise.all([...everyRead(wall, caller, query()), wall.shops(caller)]);
    expect(queries).toHaveLength(0);
  });

  it('should read every claimed shop once, in code order, when no ShopCode is given', async () => {
    const { queries, wall } = database();
    await wall.read(callerClaims({ shopCodes: ['S2', 'S1', 'S2'] }), LIST_READ, THINGS, query());
    expect(queries[0].sql).toContain('FROM things s');
    expect(queries[0].params.filter((p) => typeof p === 'string')).toEqual(['S1', 'S2']);
  });

  it('should read only the claimed shop a ShopCode asks for, in every mode', async () => {
    const { queries, wall } = database();
    const caller = callerClaims({ shopCodes: ['S1', 'S2'] });
    await wall.read(caller, LIST_READ, THINGS, query({ shopCode: 'S2' }));
    await wall.read(caller, FEED_READ, THINGS, feedOf(query({ shopCode: 'S2' })));
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
    const { queries, wall } = database([thing('7'), thing('8'), thing('9007199254740993')], parts);
    const page = await wall.read(callerClaims(), LIST_READ, ORDERS, query({ shopCode: 'SHOP1' }));
    expect(queries.map((q) => q.reader)).toEqual([1, 1]);
    expect(queries[1].sql).toBe(
      'SELECT CAST(c.order_id AS CHAR) AS order_id, c.part_no FROM order_parts c ' +
        'WHERE c.order_id IN (?, ?, ?) ORDER BY c.order_id, c.part_no',
    );
    expect(queries[1].params).toEqual([7n, 8n, 9007199254740993n]);
    expect(page.rows.map((o) => o.parts.map((p) => p.part_no))).toEqual([[1, 2], [], [1]]);
  });

  it('should read the feeds from the primary, never a replica, with what the source attaches', async () => {
    const { queries, wall } = database([thing('7')], [part('7', 1)]);
    const slice = await wall.read(callerClaims(), FEED_READ, ORDERS, {
      shopCode: 'SHOP1',
      since: null,
      afterId: '6',
      limit: 500,
      wait: 0,
    });
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
    const { queries, wall } = database([shop]);
    const shops = await wall.shops(callerClaims({ shopCodes: ['B', 'A'] }));
    expect(shops).toEqual([shop]);
    expect(queries[0].sql).toMatch(/FROM bo_shops\s+WHERE code IN \(\?, \?\) ORDER BY code/);
    expect(queries[0].params).toEqual(['A', 'B']);
  });
});

describe(`${Wall.name}: a digest's day`, () => {
  const day = { from: '2026-03-01 00:00:00', to: '2026-03-02 00:00:00' };

  it('should cover exactly the claimed shops', () => {
    const { wall } = database();
    const caller = callerClaims({ shopCodes: ['SHOP1', 'SHOP2'] });
    expect(
      ['SHOP1', 'SHOP2', 'SHOP9', 'shop1', ''].map((shop) => wall.covers(caller, shop)),
    ).toEqual([true, true, false, false, false]);
  });

  it("should read one claimed shop's day and fingerprints from one replica reader, and nothing for another shop", async () => {
    const { queries, wall } = database([thing('7')]);
    const caller = callerClaims({ shopCodes: ['SHOP1', 'SHOP2'] });
    await expect(wall.dayReads(caller, THINGS, 'SHOP9').day(day)).resolves.toMatchObject({
      rows: [],
    });
    await expect(wall.dayReads(caller, THINGS, 'SHOP9').fingerprints(day)).resolves.toEqual(
      new Map(),
    );
    expect(queries).toHaveLength(0);
    const reads = wall.dayReads(caller, THINGS, 'SHOP2');
    const { rows } = await reads.day(day);
    expect(rows.map((r) => r.id)).toEqual(['7']);
    await reads.fingerprints(day);
    expect(queries).toHaveLength(2);
    expect(queries[0].reader).not.toBe(0);
    // One digest's reads share one reader: one state of the data.
    expect(queries[1].reader).toBe(queries[0].reader);
    expect(queries[0].params).toEqual(['SHOP2', day.from, day.to]);
    expect(queries[1].sql).toMatch(/COUNT\(\*\).*GROUP BY DATE\(x\.\w+\)/);
    expect(queries[1].params).toEqual(['SHOP2', day.from, day.to]);
  });

  it("should read a business date of one claimed shop only, on the digest's reader", async () => {
    // THINGS has no business_date: its date is that of its time, the range the dates' midnights.
    const { queries, wall } = database([thing('7')]);
    const caller = callerClaims({ shopCodes: ['SHOP1', 'SHOP2'] });
    await expect(wall.dayReads(caller, THINGS, 'SHOP9').businessDay('2026-03-01')).resolves.toEqual(
      [],
    );
    expect(queries).toHaveLength(0);
    const rows = await wall.dayReads(caller, THINGS, 'SHOP2').businessDay('2026-03-01');
    expect(rows.map((r) => r.id)).toEqual(['7']);
    expect(queries.map((q) => q.params)).toEqual([
      ['SHOP2', '2026-03-01 00:00:00.000', '2026-03-02 00:00:00.000'],
    ]);
  });

  it("should read the time ranges of one claimed shop's business dates only, and their cover", async () => {
    const TICKETS = defineSource({
      table: 'tickets',
      columns: { id: col.id, at: col.text, business_date: col.text },
      time: 'at',
    });
    const late = { d: '2026-03-01', lo: '2026-03-01 10:00:00.000', hi: '2026-03-04 09:00:00.000' };
    const { queries, wall } = database([late]);
    const caller = callerClaims({ shopCodes: ['SHOP1', 'SHOP2'] });
    const dates = { from: '2026-03-01', to: '2026-03-03' };
    await expect(wall.businessDateRanges(caller, TICKETS, 'SHOP9', dates)).resolves.toEqual({
      days: new Map(),
      cover: null,
    });
    expect(queries).toHaveLength(0);
    const range = { from: late.lo, to: '2026-03-04 09:00:00.001' };
    await expect(wall.businessDateRanges(caller, TICKETS, 'SHOP2', dates)).resolves.toEqual({
      days: new Map([['2026-03-01', range]]),
      cover: range,
    });
    // One statement, on a replica's reader, of the claimed shop asked for.
    expect(queries.map((q) => q.params)).toEqual([['SHOP2', '2026-03-01', '2026-03-03']]);
    expect(queries[0].reader).not.toBe(0);
  });

  it('should list no shops, and run no query, for a token without shops', async () => {
    const { queries, wall } = database([thing('1')]);
    await expect(wall.shops(callerClaims({ shopCodes: [] }))).resolves.toEqual([]);
    expect(queries).toHaveLength(0);
  });
});

describe(`${Wall.name}: the feed's end`, () => {
  it("should read a claimed shop's feed end on the primary, and for any other shop answer '0' without a query", async () => {
    const { queries, wall } = database([{ id: '41' }]);
    const caller = callerClaims({ shopCodes: ['SHOP1'] });
    await expect(wall.feedEnd(caller, THINGS, 'SHOP1')).resolves.toBe('41');
    expect(queries.map((q) => [q.reader, q.params])).toEqual([[0, ['SHOP1']]]);
    await expect(wall.feedEnd(caller, THINGS, 'shop1')).resolves.toBe('0');
    await expect(wall.feedEnd(caller, THINGS, 'SHOP2')).resolves.toBe('0');
    expect(queries).toHaveLength(1);
  });

  it("should not even take the primary's connection for a shop outside the claims", async () => {
    const withPrimary = jest.fn();
    const wall = new Wall({ reader: jest.fn(), withPrimary });
    await expect(
      wall.feedEnd(callerClaims({ shopCodes: ['SHOP1'] }), THINGS, 'SHOP2'),
    ).resolves.toBe('0');
    expect(withPrimary).not.toHaveBeenCalled();
  });
});

describe(`${Wall.name}: tracing`, () => {
  const exported = recordedSpans();

  it("should name the caller and its shop count on the request's span, never its shops", () => {
    const { wall } = database();
    otel.trace.getTracer('request').startActiveSpan('GET /sales', (span) => {
      wall.covers(callerClaims({ userId: '42', shopCodes: ['SHOP1', 'SHOP2'] }), 'SHOP1');
      span.end();
    });
    const [span] = exported.getFinishedSpans();
    expect(span.attributes).toEqual({ 'enduser.id': '42', 'pos_api.shop_count': 2 });
  });
});
