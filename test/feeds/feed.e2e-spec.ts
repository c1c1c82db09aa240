import { insertRowAt, insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import {
  SOURCE,
  SYNCED_RESOURCES as RESOURCES,
  TABLE,
  type Resource,
} from '../cursor-endpoints/resource-tables';

type Rec = { id: string; shopCode: string } & Record<string, unknown>;
interface FeedBody {
  data: Rec[];
  nextCursor: string;
  caughtUp: boolean;
}

describeEachDatabase('Feeds: every record in arrival order, scope, cursors', (ctx) => {
  let api: TestApp;
  let token: string;
  const [A, B, C] = ['FEEDA', 'FEEDB', 'FEEDC'];

  /** A row `id` of every resource with a feed (a sale first) in shop `shop`, at `at`. */
  async function insertAll(id: number, shop: string, at: string): Promise<void> {
    for (const resource of RESOURCES) {
      await insertRowAt(ctx.db.db, SOURCE[resource], { id: BigInt(id), shopCode: shop, at });
    }
  }

  beforeAll(async () => {
    for (const shop of [A, B, C]) await createShop(ctx.db.db, shop);
    // Arrival order is id order; business time goes back and forth (late uploads).
    const times = ['2026-05-10 09:00:00.000', '2026-05-07 12:00:00.000', '2026-05-10 08:00:00.000'];
    for (let id = 1; id <= 30; id++) await insertAll(id, [A, B, C][id % 3], times[id % 3]);
    token = forgeToken({ claims: { sub: 'feeder', shop_code: [A, B] } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = (path: string, as = token) =>
    http<FeedBody>(api.baseUrl, `/api/v1.0/${path}`, { headers: bearer(as) });

  /** Reads a feed until caught up; returns the pages. */
  async function catchUp(resource: Resource, first: string, as = token): Promise<FeedBody[]> {
    const pages: FeedBody[] = [];
    let query = first;
    for (let i = 0; i < 100; i++) {
      const res = await get(`${resource}/feed?${query}`, as);
      expect(res.status).toBe(200);
      pages.push(res.body);
      if (res.body.caughtUp) return pages;
      query = `Cursor=${encodeURIComponent(res.body.nextCursor)}&Limit=4`;
    }
    throw new Error('the feed never caught up');
  }

  const claimedIds = (from = 1, to = 30) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i)
      .filter((id) => id % 3 !== 2)
      .map(String);

  /** The ids of the claimed shops' rows stored now, in id order: other tests add some. */
  async function storedClaimedIds(resource: Resource): Promise<string[]> {
    const rows: Array<{ id: string | number }> = await ctx.db.db.query(
      `SELECT id FROM ${TABLE[resource][0]} WHERE shop_code IN (?, ?) ORDER BY id`,
      [A, B],
    );
    return rows.map((r) => String(r.id));
  }

  /** An id above every row's: what the next arrival gets (ids grow in arrival order). */
  async function nextId(): Promise<number> {
    let max = 0;
    for (const table of RESOURCES.map((resource) => TABLE[resource][0])) {
      const [row] = await ctx.db.db.query<Array<{ m: number | string | null }>>(
        `SELECT MAX(id) AS m FROM ${table}`,
      );
      max = Math.max(max, Number(row.m ?? 0));
    }
    return max + 1;
  }

  it.each(RESOURCES)(
    'should deliver every record of the claimed shops of %s once, in id order, whatever its business time',
    async (resource) => {
      const pages = await catchUp(resource, 'Limit=4');
      const ids = pages.flatMap((p) => p.data.map((r) => r.id));
      // The fixture's rows of the claimed shops, and those other tests added (jest --randomize).
      expect(ids).toEqual(expect.arrayContaining(claimedIds()));
      expect(ids).toEqual(await storedClaimedIds(resource));
      expect(pages.slice(0, -1).every((p) => !p.caughtUp && p.data.length === 4)).toBe(true);
      expect(pages.every((p) => typeof p.nextCursor === 'string' && p.nextCursor.length > 0)).toBe(
        true,
      );
    },
  );

  it.each(RESOURCES)(
    'should answer a caught-up %s feed with an empty page and a cursor that later delivers what arrives',
    async (resource) => {
      const pages = await catchUp(resource, `ShopCode=${A}&Limit=500`);
      const stored = pages[pages.length - 1].nextCursor;
      const idle = await get(`${resource}/feed?Cursor=${encodeURIComponent(stored)}`);
      expect(idle.status).toBe(200);
      expect(idle.body).toMatchObject({ data: [], caughtUp: true });
      const id = await nextId();
      // A late upload: business time days before everything already delivered.
      await insertAll(id, A, '2026-05-01 07:00:00.000');
      const later = await get(
        `${resource}/feed?Cursor=${encodeURIComponent(idle.body.nextCursor)}`,
      );
      expect(later.status).toBe(200);
      expect(later.body.data.map((r) => r.id)).toEqual([String(id)]);
      expect(later.body.caughtUp).toBe(true);
    },
  );

  it('should deliver a sale uploaded late that the period walk behind its position never shows', async () => {
    const list = await http<{ data: Rec[]; nextCursor: string | null }>(
      api.baseUrl,
      `/api/v1.0/sales?ShopCode=${B}&From=2026-05-10T00:00:00`,
      { headers: bearer(token) },
    );
    const feed = await catchUp('sales', `ShopCode=${B}`);
    const fed = feed.flatMap((p) => p.data.map((r) => r.id));
    const late = String(await nextId());
    await insertSale(ctx.db.db, {
      id: BigInt(late),
      shopCode: B,
      soldAt: '2026-05-07 06:00:00.000',
    });
    const next = await get(
      `sales/feed?Cursor=${encodeURIComponent(feed[feed.length - 1].nextCursor)}`,
    );
    expect(fed.length).toBeGreaterThan(0);
    expect(next.body.data.map((r) => r.id)).toEqual([late]);
    expect(next.body.data[0]).toMatchObject({ soldAt: '2026-05-07T06:00:00.000', shopCode: B });
    expect(list.body.data.map((r) => r.id)).not.toContain(late);
  });

  it('should start the sales feed at the sales that arrived since From', async () => {
    await createShop(ctx.db.db, 'FEEDD');
    for (const [id, arrived] of [
      [301, '2026-06-01 10:00:00.000'],
      [302, '2026-06-03 10:00:00.000'],
      [303, '2026-06-04 10:00:00.000'],
    ] as const) {
      await insertSale(ctx.db.db, {
        id: BigInt(id),
        shopCode: 'FEEDD',
        soldAt: '2026-05-01 10:00:00.000',
      });
      await ctx.db.db.query('UPDATE pos_sales SET created_at = ? WHERE id = ?', [arrived, id]);
    }
    const own = forgeToken({ claims: { sub: 'since', shop_code: ['FEEDD'] } });
    const pages = await catchUp('sales', 'From=2026-06-02T00:00:00&Limit=1', own);
    expect(pages.flatMap((p) => p.data.map((r) => r.id))).toEqual(['302', '303']);
  });

  it('should refuse From on the feeds of payments and cash movements, which record no arrival time', async () => {
    for (const resource of ['payments', 'cash-movements']) {
      const res = await get(`${resource}/feed?From=2026-06-02T00:00:00`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ errors: [expect.objectContaining({ field: 'From' })] });
    }
  });

  it.each(RESOURCES)(
    'should give an empty caught-up page of %s for a shop outside the claims, or another case of a claimed one',
    async (resource) => {
      for (const shop of [C, 'NOSUCH', A.toLowerCase()]) {
        const res = await get(`${resource}/feed?ShopCode=${shop}`);
        expect({
          shop,
          status: res.status,
          data: res.body.data,
          caughtUp: res.body.caughtUp,
        }).toEqual({
          shop,
          status: 200,
          data: [],
          caughtUp: true,
        });
      }
    },
  );

  it('should ask for a bearer token with the ApiUser role', async () => {
    const none = await http(api.baseUrl, '/api/v1.0/sales/feed');
    expect(none.status).toBe(401);
    const noRole = forgeToken({ claims: { sub: 'norole', role: [], shop_code: [A] } });
    const refused = await get('payments/feed', noRole);
    expect(refused.status).toBe(403);
  });

  /** The cursor with one character of its signed body changed. */
  const tamper = (cursor: string) =>
    `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;

  describe('cursors', () => {
    let salesCursor: string;
    beforeAll(async () => {
      const res = await get(`sales/feed?ShopCode=${A}&Limit=2`);
      salesCursor = res.body.nextCursor;
    });

    const refusals: Array<
      [string, () => Promise<{ status: number; headers: Headers; text: string }>]
    > = [
      ['on another feed', () => get(`payments/feed?Cursor=${encodeURIComponent(salesCursor)}`)],
      ['on the list endpoint', () => get(`sales?Cursor=${encodeURIComponent(salesCursor)}`)],
      [
        'by another user',
        () =>
          get(
            `sales/feed?Cursor=${encodeURIComponent(salesCursor)}`,
            forgeToken({ claims: { sub: 'other', shop_code: [A, B] } }),
          ),
      ],
      [
        'with another ShopCode',
        () => get(`sales/feed?ShopCode=${B}&Cursor=${encodeURIComponent(salesCursor)}`),
      ],
      [
        'with another From',
        () => get(`sales/feed?From=2026-01-01&Cursor=${encodeURIComponent(salesCursor)}`),
      ],
      ['tampered', () => get(`sales/feed?Cursor=${encodeURIComponent(tamper(salesCursor))}`)],
      ['made up', () => get('sales/feed?Cursor=not-a-cursor')],
    ];

    it.each(refusals)('should refuse a feed cursor used %s with a 400 problem', async (_, send) => {
      const res = await send();
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.text).toMatch(/Cursor|ShopCode|From/);
    });

    it('should refuse a list cursor on a feed', async () => {
      const list = await get(`sales?ShopCode=${A}&Limit=1`);
      const res = await get(
        `sales/feed?Cursor=${encodeURIComponent(String(list.body.nextCursor))}`,
      );
      expect(res.status).toBe(400);
    });

    it('should accept the same ShopCode again with the cursor, and refuse a Limit above 500', async () => {
      const again = await get(`sales/feed?ShopCode=${A}&Cursor=${encodeURIComponent(salesCursor)}`);
      expect(again.status).toBe(200);
      const tooMany = await get('sales/feed?Limit=501');
      expect(tooMany.status).toBe(400);
      expect(tooMany.text).toContain('Limit');
    });
  });
});
