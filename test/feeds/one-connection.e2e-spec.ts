import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { bearer, http } from '../support/http';
import { recordStatements } from '../support/recorded-statements';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';

// The READ UNCOMMITTED re-read exists on MariaDB/MySQL only (SQLite has none: one writer).
describeEachDatabase(
  "Feeds: a page's committed read, its READ UNCOMMITTED re-read and its lines on one connection",
  (ctx) => {
    let api: TestApp;
    let shop: string;
    let token: string;

    beforeAll(async () => {
      const seeded = await seedBusinessData(ctx.db.db, {
        seed: 17,
        shops: 2,
        days: 3,
        salesPerDay: 20,
        startDate: '2026-03-01',
      });
      shop = seeded.shopCodes[0];
      token = forgeToken({ claims: { sub: 'one-connection', shop_code: [shop] } });
      api = await startTestApp(ctx.db);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    it('should send the feed page statements over a single connection, the re-read at READ UNCOMMITTED', async () => {
      const sent = recordStatements(api);
      const res = await http<{ data: Array<{ id: string; lines: unknown[] }>; caughtUp: boolean }>(
        api.baseUrl,
        `/api/v1.0/sales/feed?ShopCode=${shop}&Limit=7`,
        { headers: bearer(token) },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(7);
      expect(res.body.data.every((sale) => sale.lines.length > 0)).toBe(true);
      // The page's own statements (the feeds' arrival watchers and the token revocations poll
      // read other tables).
      const page = sent.filter((s) => /pos_sale/.test(s.sql) || /^SET TRANSACTION/.test(s.sql));
      expect(page.map((s) => s.sql)).toEqual([
        // The committed read: the page's sales (limit + 1) in id order.
        expect.stringMatching(
          /^SELECT CAST\(x\.id AS CHAR\) AS id, .* FROM pos_sales x .*ORDER BY x\.id LIMIT \?$/,
        ),
        'SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED',
        // The re-read: the ids of the page's range, whatever their transaction's state.
        expect.stringMatching(
          /^SELECT CAST\(x\.id AS CHAR\) AS id FROM pos_sales x WHERE .* AND x\.id <= \?$/,
        ),
        // The lines of the page's sales.
        expect.stringMatching(/ FROM pos_sale_lines c WHERE c\.sale_id IN \(/),
      ]);
      expect(page[1].sql).toBe('SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED');
      const threads = new Set(page.map((s) => s.thread));
      expect(threads.size).toBe(1);
      expect([...threads][0]).toEqual(expect.any(Number));
    });
  },
  { only: ['mysql'] },
);
