import type { Row, SqlReader } from '../common/pagination/keyset-resource';
import type { FeedQuery } from '../common/pagination/feed-query';
import type { PageQuery } from '../common/pagination/page-query';
import type { PrimaryReader } from '../database/replicas/read-router';
import { callerClaims } from '../common/testing/caller.fixture';
import { ShopScopedReader, ShopScopedReaders } from './shop-scoped-reader';

const sale = (id: string): Row => ({ id, sold_at: '2026-03-01 10:00:00.000', k_t: 'T', k_id: id });
const line = (saleId: string, lineNo: number): Row => ({ sale_id: saleId, line_no: lineNo });

/**
 * A database behind ReadRouter: answers the sales' keyset query with `sales`, the lines and
 * payment methods queries with theirs, and records every query with the reader it came through.
 */
function database(sales: Row[] = [], lines: Row[] = [], methods: Row[] = []) {
  const queries: Array<{ reader: number; sql: string; params: unknown[] }> = [];
  let readers = 0;
  const reads = {
    reader: (): SqlReader => {
      const reader = ++readers;
      return answering(reader);
    },
    withPrimary: <T>(work: (db: PrimaryReader) => Promise<T>): Promise<T> =>
      work({ ...answering(0), uncommitted: null }),
  };
  function answering(reader: number): SqlReader {
    return {
      query: (sql, params) => {
        queries.push({ reader, sql, params });
        if (sql.includes('FROM pos_sale_lines')) return Promise.resolve(lines);
        if (sql.includes('FROM pos_payments p')) return Promise.resolve(methods);
        return Promise.resolve(sales.map((r) => ({ ...r })));
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
});

/** Every read a ShopScopedReader offers for a query, as one list. */
const everyRead = (reader: ShopScopedReader, q: PageQuery) => [
  reader.salesPage(q),
  reader.paymentsPage(q),
  reader.cashMovementsPage(q),
  reader.reportChunk(q),
  reader.salesFeed(feedOf(q)),
  reader.paymentsFeed(feedOf(q)),
  reader.cashMovementsFeed(feedOf(q)),
];

describe(ShopScopedReader.name, () => {
  it('should read nothing and run no query for a shop outside the claims', async () => {
    const { queries, readers } = database([sale('1')]);
    const reader = readers.for(callerClaims({ shopCodes: ['SHOP1'] }));
    const results = await Promise.all(everyRead(reader, query({ shopCode: 'SHOP9' })));
    expect(results.map((r) => ('rows' in r ? r.rows : r.sales))).toEqual([
      [],
      [],
      [],
      [],
      [],
      [],
      [],
    ]);
    expect(queries).toHaveLength(0);
  });

  it('should compare shop codes exactly: another case is another shop', async () => {
    const { queries, readers } = database([sale('1')]);
    const reader = readers.for(callerClaims({ shopCodes: ['SHOP1'] }));
    await Promise.all(everyRead(reader, query({ shopCode: 'shop1' })));
    expect(queries).toHaveLength(0);
  });

  it('should read nothing, and run no query, for a token without shops', async () => {
    const { queries, readers } = database([sale('1')]);
    const reader = readers.for(callerClaims({ shopCodes: [] }));
    await Promise.all([...everyRead(reader, query()), reader.shops()]);
    expect(queries).toHaveLength(0);
  });

  it('should read every claimed shop once, in code order, when no ShopCode is given', async () => {
    const { queries, readers } = database();
    await readers.for(callerClaims({ shopCodes: ['S2', 'S1', 'S2'] })).paymentsPage(query());
    expect(queries[0].sql).toContain('FROM pos_payments s');
    expect(queries[0].params.filter((p) => typeof p === 'string')).toEqual(['S1', 'S2']);
  });

  it('should read only the claimed shop a ShopCode asks for', async () => {
    const { queries, readers } = database();
    const reader = readers.for(callerClaims({ shopCodes: ['S1', 'S2'] }));
    await reader.cashMovementsPage(query({ shopCode: 'S2' }));
    expect(queries[0].sql).toContain('FROM pos_cash_movements x');
    expect(queries[0].params.filter((p) => typeof p === 'string')).toEqual(['S2']);
  });

  it('should give a page of sales its lines with one query, through the reader of the page', async () => {
    const lines = [line('7', 1), line('7', 2), line('9007199254740993', 1)];
    const { queries, readers } = database([sale('7'), sale('8'), sale('9007199254740993')], lines);
    const page = await readers.for(callerClaims()).salesPage(query({ shopCode: 'SHOP1' }));
    expect(queries.map((q) => q.reader)).toEqual([1, 1]);
    expect(queries[1].sql).toMatch(
      /FROM pos_sale_lines l\s+WHERE l\.sale_id IN \(\?, \?, \?\) ORDER BY l\.sale_id, l\.line_no/,
    );
    expect(queries[1].params).toEqual([7n, 8n, 9007199254740993n]);
    expect(page.rows.map((s) => s.lines.map((l) => l.line_no))).toEqual([[1, 2], [], [1]]);
  });

  it('should start a report chunk at its position, with its lines and payment methods from one reader', async () => {
    const methods = [
      { sale_id: '5', method: 'CASH' },
      { sale_id: '5', method: 'CARD' },
    ];
    const { queries, readers } = database([sale('5'), sale('6')], [line('5', 1)], methods);
    const chunk = await readers
      .for(callerClaims())
      .reportChunk(
        query({ shopCode: 'SHOP1', from: 'F', to: 'T', after: { time: 'K', id: '4' }, limit: 1 }),
      );
    expect(queries.map((q) => q.reader)).toEqual([1, 1, 1]);
    expect(queries[0].params).toEqual(['SHOP1', 'K', 'T', 'K', 'K', 'K', 4n, 2]);
    expect(queries[2].params).toEqual([5n]);
    expect(chunk.sales.map((s) => s.id)).toEqual(['5']);
    expect(chunk.paymentMethods).toEqual(new Map([['5', ['CASH', 'CARD']]]));
    expect(chunk.next).toEqual({ time: 'T', id: '5' });
  });

  it('should read the feeds from the primary, never a replica, sales with their lines', async () => {
    const { queries, readers } = database([sale('7')], [line('7', 1)]);
    const slice = await readers
      .for(callerClaims())
      .salesFeed({ shopCode: 'SHOP1', since: null, afterId: '6', limit: 500 });
    expect(queries.map((q) => q.reader)).toEqual([0, 0]);
    expect(queries[0].sql).toMatch(
      /FROM pos_sales x WHERE x\.shop_code = \? AND x\.id > \? ORDER BY x\.id/,
    );
    expect(queries[0].params).toEqual(['SHOP1', 6n, 501]);
    expect(slice).toMatchObject({ position: '7', caughtUp: true });
    expect(slice.rows[0].lines).toHaveLength(1);
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
