import { ReadAhead } from '../../src/backoffice/read-ahead';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { RESOURCES, type Resource, TABLE, YEAR } from './resource-tables';

/** How long a page read ahead is held: long enough for a slow test machine (the default is 1 s). */
const HELD_MS = 5_000;

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
      api = await startTestApp(ctx.db, { LIST_READ_AHEAD_MS: String(HELD_MS) });
      ahead = api.app.get(ReadAhead);
    }, 120_000);
    // Each test starts with nothing held: a page an earlier test left held counts in the size and
    // in its user's bound (two pages), whichever order jest runs the tests in (--randomize).
    beforeEach(async () => {
      for (let i = 0; i < (HELD_MS + 2_000) / 10 && ahead.size > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(ahead.size).toBe(0);
    }, HELD_MS + 5_000);
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

    /**
     * A walk of `user`'s sales by pages of 40 up to its third page, read ahead and held (its read
     * done): the second page, the cursor of the third, and the ids the third holds.
     */
    async function thirdPageHeld(user: string) {
      const token = forgeToken({ claims: { sub: user, shop_code: [shops[0], shops[2]] } });
      const first = await get(`/api/v1.0/sales?${YEAR}&Limit=40`, token);
      const held = ahead.size;
      const second = await get(
        `/api/v1.0/sales?Cursor=${encodeURIComponent(first.body.nextCursor ?? '')}&Limit=40`,
        token,
      );
      await untilHeld(held + 1);
      await ahead.settled();
      const all = await storedIds('sales', [shops[0], shops[2]], 120);
      const cursor = encodeURIComponent(second.body.nextCursor ?? '');
      const third = () => get(`/api/v1.0/sales?Cursor=${cursor}&Limit=40`, token);
      return { second, third, ids: all.slice(80, 120) };
    }

    /** The third page after `change`, which the check must find (decision 29.13). */
    async function afterChange(user: string, change: (ids: string[]) => Promise<void>) {
      const { third, ids } = await thirdPageHeld(user);
      const before = ahead.counts();
      await change(ids);
      const res = await third();
      const after = ahead.counts();
      expect(after.stale - before.stale).toBe(1);
      expect(after.hits).toBe(before.hits);
      return { data: res.body.data, ids };
    }

    it('should serve the page read ahead when nothing changed, after one check', async () => {
      const { third, ids } = await thirdPageHeld('erin');
      const before = ahead.counts();
      const res = await third();
      expect(res.body.data.map((r) => r.id)).toEqual(ids);
      expect(ahead.counts().hits - before.hits).toBe(1);
      expect(ahead.counts().stale).toBe(before.stale);
    });

    it('should show a sale inserted ahead of the cursor after the next page was read ahead', async () => {
      let id = 0n;
      const { data, ids } = await afterChange('carol', async (ids) => {
        // A sale of one of her shops, 1 ms before the held page's first: the third page's first.
        const [first] = await ctx.db.db.query<Array<{ sold_at: string }>>(
          `SELECT CAST(sold_at AS CHAR) AS sold_at FROM pos_sales WHERE id = ?`,
          [ids[0]],
        );
        const at = new Date(Date.parse(`${first.sold_at.replace(' ', 'T')}Z`) - 1);
        id = 990_001n;
        await insertSale(ctx.db.db, {
          id,
          shopCode: shops[0],
          soldAt: at.toISOString().slice(0, 23).replace('T', ' '),
        });
      });
      expect(data.map((r) => r.id)).toEqual([String(id), ...ids.slice(0, 39)]);
    });

    it('should show a sale voided in place after its page was read ahead', async () => {
      let voided = '';
      const { data, ids } = await afterChange('frank', async (held) => {
        voided = held[7];
        await ctx.db.db.query(`UPDATE pos_sales SET status = 'VOIDED' WHERE id = ?`, [voided]);
      });
      expect(data.map((r) => r.id)).toEqual(ids);
      expect(data.find((r) => r.id === voided)?.status).toBe('VOIDED');
    });

    it('should not show a sale deleted after its page was read ahead', async () => {
      let deleted = '';
      const { data, ids } = await afterChange('grace', async (held) => {
        deleted = held[11];
        await ctx.db.db.query(`DELETE FROM pos_payments WHERE sale_id = ?`, [deleted]);
        await ctx.db.db.query(`DELETE FROM pos_sales WHERE id = ?`, [deleted]);
      });
      expect(data.map((r) => r.id)).not.toContain(deleted);
      expect(data.map((r) => r.id).slice(0, 39)).toEqual(ids.filter((id) => id !== deleted));
    });

    it('should show a line of a sale changed after its page was read ahead', async () => {
      let changed = '';
      const { data } = await afterChange('heidi', async (held) => {
        const [line] = await ctx.db.db.query<Array<{ sale_id: string | number }>>(
          `SELECT sale_id FROM pos_sale_lines WHERE sale_id IN (${held.map(() => '?').join(', ')}) ` +
            `ORDER BY sale_id LIMIT 1`,
          held,
        );
        changed = String(line.sale_id);
        await ctx.db.db.query(
          `UPDATE pos_sale_lines SET description = 'Changed after the read ahead' WHERE sale_id = ? AND line_no = 1`,
          [changed],
        );
      });
      const sale = data.find((r) => r.id === changed) as unknown as {
        lines: Array<{ description: string }>;
      };
      expect(sale.lines[0].description).toBe('Changed after the read ahead');
    });
  },
  // The embedded SQLite database never reads ahead (decision 29.13): its spec is below.
  { only: ['mysql'] },
);

describeEachDatabase(
  'Read ahead on SQLite: never, whatever LIST_READ_AHEAD_MS says (decision 29.13)',
  (ctx) => {
    it('should read nothing ahead on the embedded database', async () => {
      const summary = await seedBusinessData(ctx.db.db, {
        seed: 2912,
        shops: 1,
        days: 30,
        salesPerDay: 5,
        startDate: '2026-01-01',
      });
      const api = await startTestApp(ctx.db, { LIST_READ_AHEAD_MS: '5000' });
      try {
        const ahead = api.app.get(ReadAhead);
        const token = forgeToken({ claims: { sub: 'ivan', shop_code: summary.shopCodes } });
        const first = await http<Body>(api.baseUrl, `/api/v1.0/sales?${YEAR}&Limit=20`, {
          headers: bearer(token),
        });
        const cursor = encodeURIComponent(first.body.nextCursor ?? '');
        const second = await http<Body>(api.baseUrl, `/api/v1.0/sales?Cursor=${cursor}&Limit=20`, {
          headers: bearer(token),
        });
        expect(second.status).toBe(200);
        expect(ahead.enabled).toBe(false);
        expect(ahead.size).toBe(0);
        // Every outcome (hits, stale, misses, wasted, failed, skipped) still 0.
        expect(Object.values(ahead.counts())).toEqual([0, 0, 0, 0, 0, 0]);
      } finally {
        await api.close();
      }
    });
  },
  { only: ['sqlite'] },
);
