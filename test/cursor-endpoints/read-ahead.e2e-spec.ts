import { ReadAhead } from '../../src/backoffice/read-ahead';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { RESOURCES, type Resource, TABLE, YEAR } from './resource-tables';

type Rec = { id: string; shopCode: string } & Record<string, unknown>;
interface Body {
  data: Rec[];
  nextCursor: string | null;
}

describeEachDatabase(
  'Read ahead (decision 29.12): a walk served from pages read before they were asked',
  (ctx) => {
    let api: TestApp;
    let ahead: ReadAhead;
    let shops: string[];
    const alice = () => forgeToken({ claims: { sub: 'alice', shop_code: [shops[0], shops[2]] } });

    beforeAll(async () => {
      const summary = await seedBusinessData(ctx.db.db, {
        seed: 2911,
        shops: 3,
        days: 365,
        salesPerDay: 2,
        startDate: '2026-01-01',
      });
      shops = summary.shopCodes;
      // Held long enough for a slow test machine; the default is 1 s.
      api = await startTestApp(ctx.db, { LIST_READ_AHEAD_MS: '5000' });
      ahead = api.app.get(ReadAhead);
    }, 120_000);
    afterAll(async () => {
      await api?.close();
    });

    async function get(path: string, token: string) {
      const res = await http<Body>(api.baseUrl, path, { headers: bearer(token) });
      expect(res.status).toBe(200);
      return res;
    }

    async function storedIds(resource: Resource, shopCodes: string[], limit = 1_000_000) {
      const [table, column] = TABLE[resource];
      const rows = await ctx.db.db.query<Array<{ id: string | number }>>(
        `SELECT id FROM ${table} WHERE shop_code IN (${shopCodes.map(() => '?').join(', ')}) ` +
          `ORDER BY ${column}, id LIMIT ${limit}`,
        shopCodes,
      );
      return rows.map((row) => String(row.id));
    }

    /** Until the page read ahead is held (read or in flight): at most 5 s. */
    async function untilHeld(count: number) {
      for (let i = 0; i < 500 && ahead.size < count; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(ahead.size).toBe(count);
    }

    it.each(RESOURCES)(
      'should read a year of %s through Link with reading ahead on, every record once, pages after the second read ahead',
      async (resource) => {
        const before = ahead.counts();
        const token = alice();
        const records: Rec[] = [];
        let url: URL | null = new URL(`/api/v1.0/${resource}?${YEAR}&Limit=97`, api.baseUrl);
        let pages = 0;
        while (url !== null && pages < 1_000) {
          const res = await get(url.pathname + url.search, token);
          pages++;
          records.push(...res.body.data);
          const link = /^<([^>]*)>; rel="next"$/.exec(res.headers.get('link') ?? '');
          url = link ? new URL(link[1], url) : null;
        }
        const expected = await storedIds(resource, [shops[0], shops[2]]);
        expect(expected.length).toBeGreaterThan(1_000);
        expect(records.map((r) => r.id)).toEqual(expected);
        const after = ahead.counts();
        // The first page carries no Cursor (nothing ahead), the second finds nothing, and each
        // later one was read ahead while the one before it was answered.
        expect(after.misses - before.misses).toBe(1);
        expect(after.hits - before.hits).toBe(pages - 2);
        expect(after.wasted + after.failed).toBe(before.wasted + before.failed);
        expect(ahead.size).toBe(0);
      },
    );

    it('should never give a page read ahead to another user, or to the same user with other shops', async () => {
      const year = `/api/v1.0/sales?${YEAR}`;
      const first = await get(`${year}&Limit=50`, alice());
      const second = await get(
        `/api/v1.0/sales?Cursor=${encodeURIComponent(first.body.nextCursor ?? '')}&Limit=50`,
        alice(),
      );
      await untilHeld(1);
      const cursor = encodeURIComponent(second.body.nextCursor ?? '');
      const expected = (await storedIds('sales', [shops[0], shops[2]], 150)).slice(100);
      const before = ahead.counts();

      // Bob, granted the same shops, reaches the same position with a first page of 100: his
      // request for the next 50 is the same query as Alice's third page, and reads its own.
      const bob = forgeToken({ claims: { sub: 'bob', shop_code: [shops[0], shops[2]] } });
      const bobs = await get(`${year}&Limit=100`, bob);
      const bobsNext = await get(
        `/api/v1.0/sales?Cursor=${encodeURIComponent(bobs.body.nextCursor ?? '')}&Limit=50`,
        bob,
      );
      expect(bobsNext.body.data.map((r) => r.id)).toEqual(expected);

      // Alice with a token for one of the two shops: her own cursor, the same query, another
      // scope. What was read ahead holds the other shop's sales; she gets only her shop's.
      const narrow = forgeToken({ claims: { sub: 'alice', shop_code: [shops[0]] } });
      const narrowed = await get(`/api/v1.0/sales?Cursor=${cursor}&Limit=50`, narrow);
      expect(narrowed.body.data.length).toBeGreaterThan(0);
      expect(narrowed.body.data.every((r) => r.shopCode === shops[0])).toBe(true);
      expect(expected.some((id) => !narrowed.body.data.some((r) => r.id === id))).toBe(true);

      // Neither took Alice's page (each read its own, and read its next page ahead in turn).
      expect(ahead.counts().hits).toBe(before.hits);
      expect(ahead.counts().misses).toBe(before.misses + 2);
      // Alice's own request takes it, once.
      const hitsBefore = ahead.counts().hits;
      const third = await get(`/api/v1.0/sales?Cursor=${cursor}&Limit=50`, alice());
      expect(third.body.data.map((r) => r.id)).toEqual(expected);
      expect(ahead.counts().hits).toBe(hitsBefore + 1);
    });

    it('should, with reading ahead on, not show a sale inserted ahead of the cursor after the next page was read (why it is off by default)', async () => {
      const carol = forgeToken({ claims: { sub: 'carol', shop_code: [shops[0], shops[2]] } });
      const year = `/api/v1.0/sales?${YEAR}&Limit=40`;
      const first = await get(year, carol);
      const held = ahead.size;
      const second = await get(
        `/api/v1.0/sales?Cursor=${encodeURIComponent(first.body.nextCursor ?? '')}&Limit=40`,
        carol,
      );
      await untilHeld(held + 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // A sale of one of her shops, 1 ms after the second page's last: the third page's first.
      const last = second.body.data[second.body.data.length - 1];
      const at = new Date(Date.parse(`${String(last.soldAt)}Z`) + 1);
      const id = 990_001n;
      await insertSale(ctx.db.db, {
        id,
        shopCode: shops[0],
        soldAt: at.toISOString().slice(0, 23).replace('T', ' '),
      });
      const third = await get(
        `/api/v1.0/sales?Cursor=${encodeURIComponent(second.body.nextCursor ?? '')}&Limit=40`,
        carol,
      );
      // Read before the insert: the page (and so the walk, whose cursor moves past it) lacks it.
      expect(third.body.data.map((r) => r.id)).not.toContain(String(id));
      expect(third.body.data).toHaveLength(40);
      // Without the read ahead, the same request shows it (the paging spec's rule).
      const dave = forgeToken({ claims: { sub: 'dave', shop_code: [shops[0], shops[2]] } });
      const fresh = await get(`/api/v1.0/sales?${YEAR}&Limit=80`, dave);
      const next = await get(
        `/api/v1.0/sales?Cursor=${encodeURIComponent(fresh.body.nextCursor ?? '')}&Limit=40`,
        dave,
      );
      expect(next.body.data[0].id).toBe(String(id));
    });
  },
);
