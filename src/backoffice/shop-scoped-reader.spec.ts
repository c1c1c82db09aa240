import * as otel from '@opentelemetry/api';
import { recordedSpans } from '../common/testing/recorded-spans';
import type { AppConfig } from '../config/app-config';
import type { PrimaryReader, ReadRouter } from '../database/replicas/read-router';
import type { Row, SqlReader } from '../database/sql-reader';
import { callerClaims } from '../common/testing/caller.fixture';
import type { PageQuery } from './modes/list.mode';
import { FeedWaiters } from './arrivals/feed-waiters';
import { ShopScopedReader, ShopScopedReaders } from './shop-scoped-reader';
import { col, defineSource, withAttached } from './source';
import type { FeedQuery } from './sql/arrival-reader';
import { arrivalsTable } from './testing/arrivals-table';

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

describe(`${ShopScopedReader.name}: a digest's day`, () => {
  const day = { from: '2026-03-01 00:00:00', to: '2026-03-02 00:00:00' };

  it('should cover exactly the claimed shops', () => {
    const reader = database().readers.for(callerClaims({ shopCodes: ['SHOP1', 'SHOP2'] }));
    expect(['SHOP1', 'SHOP2', 'SHOP9', 'shop1', ''].map((shop) => reader.covers(shop))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it("should read one claimed shop's day and fingerprints from one replica reader, and nothing for another shop", async () => {
    const { queries, readers } = database([thing('7')]);
    const reader = readers.for(callerClaims({ shopCodes: ['SHOP1', 'SHOP2'] }));
    await expect(reader.dayReads(THINGS, 'SHOP9').day(day)).resolves.toMatchObject({ rows: [] });
    await expect(reader.dayReads(THINGS, 'SHOP9').fingerprints(day)).resolves.toEqual(new Map());
    expect(queries).toHaveLength(0);
    const reads = reader.dayReads(THINGS, 'SHOP2');
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
    const { queries, readers } = database([thing('7')]);
    const reader = readers.for(callerClaims({ shopCodes: ['SHOP1', 'SHOP2'] }));
    await expect(reader.dayReads(THINGS, 'SHOP9').businessDay('2026-03-01')).resolves.toEqual([]);
    expect(queries).toHaveLength(0);
    const rows = await reader.dayReads(THINGS, 'SHOP2').businessDay('2026-03-01');
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
    const { queries, readers } = database([late]);
    const reader = readers.for(callerClaims({ shopCodes: ['SHOP1', 'SHOP2'] }));
    const dates = { from: '2026-03-01', to: '2026-03-03' };
    await expect(reader.businessDateRanges(TICKETS, 'SHOP9', dates)).resolves.toEqual({
      days: new Map(),
      cover: null,
    });
    expect(queries).toHaveLength(0);
    const range = { from: late.lo, to: '2026-03-04 09:00:00.001' };
    await expect(reader.businessDateRanges(TICKETS, 'SHOP2', dates)).resolves.toEqual({
      days: new Map([['2026-03-01', range]]),
      cover: range,
    });
    // One statement, on a replica's reader, of the claimed shop asked for.
    expect(queries.map((q) => q.params)).toEqual([['SHOP2', '2026-03-01', '2026-03-03']]);
    expect(queries[0].reader).not.toBe(0);
  });

  it('should list no shops, and run no query, for a token without shops', async () => {
    const { queries, readers } = database([thing('1')]);
    await expect(readers.for(callerClaims({ shopCodes: [] })).shops()).resolves.toEqual([]);
    expect(queries).toHaveLength(0);
  });
});

describe(`${ShopScopedReader.name}: waiting for arrivals`, () => {
  const INTERVAL_MS = 250;
  const config = {
    FEED_MAX_WAITERS: 100,
    FEED_MAX_WAITERS_PER_USER: 10,
    FEED_POLL_INTERVAL_MS: INTERVAL_MS,
  } as AppConfig;

  /** Readers whose feeds wait on the table `things` of an in-memory SQLite. */
  function waitingReaders() {
    const table = arrivalsTable('things');
    const reads = { reader: () => table.reader, withPrimary: table.withPrimary };
    const waiters = new FeedWaiters(config, reads as unknown as ReadRouter);
    return { ...table, waiters, readers: new ShopScopedReaders(reads, waiters) };
  }
  const feed = (shopCode: string | null): FeedQuery => ({
    shopCode,
    since: null,
    afterId: '5',
    limit: 500,
    wait: 30,
  });

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should answer at once, as read, without the waiting feeds', async () => {
    const { readers } = database();
    const wait = readers.for(callerClaims()).awaitArrivals(THINGS, feed(null), '5', 'things');
    await expect(wait.next(30_000, 'first')).resolves.toBe(false);
    expect(() => wait.end()).not.toThrow();
  });

  it('should wake a wait for a row of the ShopCode it reads, not of another claimed shop', async () => {
    const { readers, insert } = waitingReaders();
    const reader = readers.for(callerClaims({ shopCodes: ['SHOP1', 'SHOP2'] }));
    const wait = reader.awaitArrivals(THINGS, feed('SHOP2'), '5', 'things');
    let arrived: boolean | undefined;
    void wait.next(30_000, 'first').then((a) => (arrived = a));
    insert('SHOP1', 6);
    await jest.advanceTimersByTimeAsync(3 * INTERVAL_MS);
    expect(arrived).toBeUndefined();
    insert('SHOP2', 7);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(arrived).toBe(true);
    wait.end();
  });

  it('should never wake a wait for a shop outside the claims, and answer it when its time runs out', async () => {
    const { readers, insert, statements } = waitingReaders();
    const wait = readers
      .for(callerClaims({ shopCodes: ['SHOP1'] }))
      .awaitArrivals(THINGS, feed('SHOP9'), '5', 'things');
    const next = wait.next(30_000, 'first');
    insert('SHOP9', 6);
    await jest.advanceTimersByTimeAsync(30_000);
    await expect(next).resolves.toBe(false);
    expect(statements).toHaveLength(0);
    wait.end();
  });

  it('should let the wait go when it ends', async () => {
    const { readers, waiters } = waitingReaders();
    const wait = readers.for(callerClaims()).awaitArrivals(THINGS, feed(null), '5', 'things');
    const next = wait.next(30_000, 'first');
    expect(waiters.counts()).toEqual(new Map([['things', 1]]));
    wait.end();
    await expect(next).resolves.toBe(false);
    expect(waiters.counts()).toEqual(new Map([['things', 0]]));
  });
});

describe(`${ShopScopedReaders.name}: tracing`, () => {
  const exported = recordedSpans();

  it("should name the caller and its shop count on the request's span, never its shops", () => {
    const { readers } = database();
    otel.trace.getTracer('request').startActiveSpan('GET /sales', (span) => {
      readers.for(callerClaims({ userId: '42', shopCodes: ['SHOP1', 'SHOP2'] }));
      span.end();
    });
    const [span] = exported.getFinishedSpans();
    expect(span.attributes).toEqual({ 'enduser.id': '42', 'pos_api.shop_count': 2 });
  });
});
