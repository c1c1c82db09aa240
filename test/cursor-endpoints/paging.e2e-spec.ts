import { seedBusinessData } from '../../tools/seed/business-data.writer';
import {
  insertCashMovement,
  insertPayment,
  insertSale,
  insertRowAt,
  walkPages,
} from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { DATED_BY, RESOURCES, ROWS, type Resource, SOURCE, TABLE } from './resource-tables';

/** `sale_id` → `saleId`: a column's field in the record. */
const camel = (column: string): string =>
  column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

type Rec = { id: string; shopCode: string } & Record<string, unknown>;

describeEachDatabase('Cursor endpoints: completeness, order, stability, bounds', (ctx) => {
  let api: TestApp;
  let shops: string[];
  let token: string;

  beforeAll(async () => {
    const summary = await seedBusinessData(ctx.db.db, {
      seed: 11,
      shops: 3,
      days: 4,
      salesPerDay: 15,
      startDate: '2026-04-01',
    });
    shops = summary.shopCodes;
    token = forgeToken({ claims: { sub: 'pager', shop_code: [shops[0], shops[1]] } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const page = (resource: string, query: string, as = token) =>
    http<{ data: Rec[]; nextCursor: string | null }>(
      api.baseUrl,
      `/api/v1.0/${resource}?${query}`,
      { headers: bearer(as) },
    );

  const walk = (resource: Resource, query: string, limit: number) =>
    walkPages<Rec>((cursor) =>
      page(resource, cursor ? `Cursor=${cursor}&Limit=${limit}` : `${query}&Limit=${limit}`),
    );

  /** The ids the database holds for the filter, in (time, id) order. */
  async function expectedIds(
    resource: Resource,
    shopCodes: string[],
    from?: string,
    to?: string,
  ): Promise<string[]> {
    const [table, column] = TABLE[resource];
    const conditions = [`shop_code IN (${shopCodes.map(() => '?').join(', ')})`, ROWS[resource]];
    const params: unknown[] = [...shopCodes];
    if (from) {
      conditions.push(`${column} >= ?`);
      params.push(from);
    }
    if (to) {
      conditions.push(`${column} < ?`);
      params.push(to);
    }
    const rows = await ctx.db.db.query<Array<{ id: string | number }>>(
      `SELECT id FROM ${table} WHERE ${conditions.join(' AND ')} ORDER BY ${column}, id`,
      params,
    );
    return rows.map((r) => String(r.id));
  }

  /**
   * One row of a resource in a shop at a time (epoch ms, shop-local), next to `near`: the
   * declared columns' defaults, its references (`…_id`) those of `near`, which exist.
   */
  async function insertRow(
    resource: Resource,
    id: bigint,
    shopCode: string,
    time: number,
    near: Rec,
  ): Promise<void> {
    const source = SOURCE[resource];
    const at = new Date(time).toISOString().slice(0, 23).replace('T', ' ');
    const references = Object.keys(source.columns)
      .filter((column) => column.endsWith('_id'))
      .map((column) => [column, (near[camel(column)] as string | null | undefined) ?? null]);
    await insertRowAt(ctx.db.db, source, { id, shopCode, at }, Object.fromEntries(references));
  }

  describe.each(RESOURCES)('%s', (resource) => {
    it('should return, walking every page, exactly the rows the database holds for the filter, each once, in (time, id) order', async () => {
      const expected = await expectedIds(
        resource,
        [shops[0], shops[1]],
        '2026-04-02 06:30:00.000',
        '2026-04-04 00:00:00.000',
      );
      // Pages of 23, or fewer for a resource with fewer rows (drawer sessions): three pages.
      const limit = Math.min(23, Math.floor((expected.length - 1) / 2));
      const pages = await walk(resource, `From=2026-04-02T06:30:00&To=2026-04-04`, limit);
      const ids = pages.flatMap((p) => p.data.map((r) => r.id));
      expect(ids).toEqual(expected);
      expect(ids.length).toBeGreaterThan(limit * 2);
      expect(limit).toBeGreaterThan(4);
      const times = pages.flatMap((p) => p.data.map((r) => String(r[DATED_BY[resource]])));
      expect([...times].sort()).toEqual(times);
    });

    it('should respect the page size and end with nextCursor null', async () => {
      const pages = await walk(resource, `ShopCode=${shops[0]}`, 40);
      for (const p of pages.slice(0, -1)) {
        expect(p.data).toHaveLength(40);
        expect(p.nextCursor).toEqual(expect.any(String));
      }
      const last = pages[pages.length - 1];
      expect(last.nextCursor).toBeNull();
      expect(last.data.length).toBeLessThanOrEqual(40);
      expect(pages.flatMap((p) => p.data.map((r) => r.id))).toEqual(
        await expectedIds(resource, [shops[0]]),
      );
    });

    it('should default to 500 records per page and cap Limit at 500', async () => {
      const res = await page(resource, '');
      const total = (await expectedIds(resource, [shops[0], shops[1]])).length;
      expect(res.body.data).toHaveLength(Math.min(500, total));
      expect((await page(resource, 'Limit=501')).status).toBe(400);
    });

    it('should never show a row twice nor miss one, over several shops, while rows are inserted right behind and right ahead of the cursor', async () => {
      const before = await expectedIds(resource, [shops[0], shops[1]]);
      const walker = forgeToken({
        claims: { sub: `interleaved-${resource}`, shop_code: [shops[0], shops[1]] },
      });
      const seen: Rec[] = [];
      const ahead: string[] = [];
      const behind: string[] = [];
      let cursor: string | null = null;
      let n = 0;
      do {
        const res = await page(resource, cursor ? `Cursor=${cursor}&Limit=13` : 'Limit=13', walker);
        expect(res.status).toBe(200);
        seen.push(...res.body.data);
        cursor = res.body.nextCursor;
        const last = res.body.data[res.body.data.length - 1];
        const at = Date.parse(`${String(last[DATED_BY[resource]])}Z`);
        for (const [list, time] of [
          [behind, at - 1],
          [ahead, at + 1],
        ] as const) {
          // Resources of one table (cash movements, drawer sessions) take ids of their own.
          const id = BigInt(960_000 + 10_000 * RESOURCES.indexOf(resource) + ++n);
          await insertRow(resource, id, shops[1], time, last);
          list.push(String(id));
        }
      } while (cursor);
      const ids = seen.map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => before.includes(id))).toEqual(before);
      // A row inserted behind the cursor is never shown; one ahead of it always is, but for the
      // one inserted after the last page.
      expect(ids.filter((id) => behind.includes(id))).toEqual([]);
      expect(ids.filter((id) => ahead.includes(id))).toEqual(ahead.slice(0, -1));
      const keys = seen.map((r) => `${String(r[DATED_BY[resource]])}|${r.id.padStart(20, '0')}`);
      expect([...keys].sort()).toEqual(keys);
    });

    it('should accept the filters again with the cursor when they match', async () => {
      const first = await page(resource, `ShopCode=${shops[1]}&From=2026-04-02&Limit=5`);
      const next = await page(
        resource,
        `ShopCode=${shops[1]}&From=2026-04-02T00:00:00.000&Cursor=${first.body.nextCursor}&Limit=5`,
      );
      expect(next.status).toBe(200);
      expect(next.body.data[0].id).not.toBe(first.body.data[0].id);
    });
  });

  it('should include a row exactly at From and exclude a row exactly at To', async () => {
    const shop = shops[0];
    await insertSale(ctx.db.db, { id: 900001n, shopCode: shop, soldAt: '2026-05-10 12:00:00.000' });
    await insertSale(ctx.db.db, { id: 900002n, shopCode: shop, soldAt: '2026-05-10 13:00:00.000' });
    await insertSale(ctx.db.db, { id: 900003n, shopCode: shop, soldAt: '2026-05-10 12:59:59.999' });
    await insertPayment(ctx.db.db, {
      id: 900001n,
      saleId: 900001n,
      shopCode: shop,
      paidAt: '2026-05-10 12:00:00.000',
      amount: '1.00',
    });
    await insertPayment(ctx.db.db, {
      id: 900002n,
      saleId: 900002n,
      shopCode: shop,
      paidAt: '2026-05-10 13:00:00.000',
      amount: '1.00',
    });
    await insertCashMovement(ctx.db.db, {
      id: 900001n,
      shopCode: shop,
      movedAt: '2026-05-10 12:00:00.000',
      amount: '1.00',
    });
    await insertCashMovement(ctx.db.db, {
      id: 900002n,
      shopCode: shop,
      movedAt: '2026-05-10 13:00:00.000',
      amount: '1.00',
    });
    const q = `ShopCode=${shop}&From=2026-05-10T12:00:00&To=2026-05-10T13:00:00`;
    expect((await page('sales', q)).body.data.map((r) => r.id)).toEqual(['900001', '900003']);
    expect((await page('payments', q)).body.data.map((r) => r.id)).toEqual(['900001']);
    expect((await page('cash-movements', q)).body.data.map((r) => r.id)).toEqual(['900001']);
    // A bare date is its midnight; fractions finer than milliseconds keep the bounds exact.
    expect(
      (
        await page('sales', `ShopCode=${shop}&From=2026-05-10T12:59:59.9985&To=2026-05-11`)
      ).body.data.map((r) => r.id),
    ).toEqual(['900003', '900002']);
    expect(
      (
        await page('sales', `ShopCode=${shop}&From=2026-05-10&To=2026-05-10T12:59:59.9991`)
      ).body.data.map((r) => r.id),
    ).toEqual(['900001', '900003']);
  });

  it('should order rows with the same date-time by id, and page through ties without loss', async () => {
    const shop = shops[1];
    for (let i = 0; i < 7; i++) {
      await insertSale(ctx.db.db, {
        id: BigInt(910010 - i),
        shopCode: shop,
        soldAt: '2026-06-01 09:00:00.000',
      });
    }
    const pages = await walk('sales', `ShopCode=${shop}&From=2026-06-01&To=2026-06-02`, 2);
    expect(pages.flatMap((p) => p.data.map((r) => r.id))).toEqual([
      '910004',
      '910005',
      '910006',
      '910007',
      '910008',
      '910009',
      '910010',
    ]);
  });

  it('should never show a row twice nor miss a row that existed, while rows are inserted during the walk', async () => {
    const shop = shops[2];
    const stable = forgeToken({ claims: { sub: 'stable', shop_code: [shop] } });
    const before = await expectedIds('sales', [shop]);
    const seen: string[] = [];
    let cursor: string | null = null;
    let inserted = 0;
    do {
      const q: string = cursor ? `Cursor=${cursor}&Limit=17` : `ShopCode=${shop}&Limit=17`;
      const res = await http(api.baseUrl, `/api/v1.0/sales?${q}`, { headers: bearer(stable) });
      seen.push(...res.body.data.map((r: Rec) => r.id));
      cursor = res.body.nextCursor;
      // One row far in the past (behind the walk) and one far ahead, between pages.
      inserted++;
      await insertSale(ctx.db.db, {
        id: BigInt(920000 + inserted * 2),
        shopCode: shop,
        soldAt: '2026-01-01 08:00:00.000',
      });
      await insertSale(ctx.db.db, {
        id: BigInt(920001 + inserted * 2),
        shopCode: shop,
        soldAt: '2027-01-01 08:00:00.000',
      });
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
    expect(inserted).toBeGreaterThan(3);
  });
});
