import { createHash } from 'node:crypto';
import { insertRowAt, insertSale, walkPages } from '../support/business-factories';
import { DATED_BY, SOURCE, TABLE } from '../cursor-endpoints/resource-tables';
import { checksumOf, type Rec } from './support/checksum-rule';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { SYNCED_RESOURCES as RESOURCES, type Resource } from '../cursor-endpoints/resource-tables';
import { NEWEST_DIGEST_VERSION } from '../../src/catalogue/digest-versions';

interface Day {
  date: string;
  count: number;
  checksum: string;
}

const EMPTY = createHash('sha256').digest('hex');

/** The day after `date` (YYYY-MM-DD). */
const nextDate = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describeEachDatabase(
  'Digests: a count and a checksum per date, over what the list returns',
  (ctx) => {
    let api: TestApp;
    let token: string;
    const [SHOP, OTHER] = ['DIGA', 'DIGB'];

    beforeAll(async () => {
      for (const shop of [SHOP, OTHER]) await createShop(ctx.db.db, shop);
      // Three dated days in March, with the edges of a day; id order differs from time order.
      const rows: Array<[number, string]> = [
        [5, '2026-03-02 00:00:00.000'],
        [3, '2026-03-02 10:00:00.000'],
        [4, '2026-03-02 23:59:59.999'],
        [6, '2026-03-04 12:00:00.000'],
        [1, '2026-03-31 08:00:00.000'],
        [2, '2026-05-31 23:59:59.999'],
      ];
      for (const [id, at] of rows) {
        const lines = [
          { quantity: '1.000', unitPrice: '5.00', net: '5.00', tax: '1.05', gross: '6.05' },
          { quantity: '2.000', unitPrice: '2.50', net: '5.00', tax: '1.05', gross: '6.05' },
        ];
        await insertSale(ctx.db.db, { id: BigInt(id), shopCode: SHOP, soldAt: at, lines });
        for (const resource of RESOURCES.filter((r) => r !== 'sales')) {
          await insertRowAt(ctx.db.db, SOURCE[resource], { id: BigInt(id), shopCode: SHOP, at });
        }
      }
      // Another shop's rows on the same days never enter SHOP's digest.
      for (const resource of RESOURCES) {
        const at = '2026-03-02 11:00:00.000';
        await insertRowAt(ctx.db.db, SOURCE[resource], { id: 90n, shopCode: OTHER, at });
      }
      token = forgeToken({ claims: { sub: 'digester', shop_code: [SHOP] } });
      api = await startTestApp(ctx.db);
    });
    afterAll(async () => {
      await api?.close();
    });

    const get = <T>(path: string, as = token) =>
      http<T>(api.baseUrl, `/api/v1.0/${path}`, { headers: bearer(as) });

    async function digest(resource: Resource, from: string, to: string): Promise<Day[]> {
      const res = await get<{ data: Day[] }>(
        `${resource}/digest?ShopCode=${SHOP}&From=${from}&To=${to}`,
      );
      expect(res.status).toBe(200);
      return res.body.data;
    }

    /** Every record the list returns for the period, walked page by page. */
    async function listed(resource: Resource, from: string, to: string): Promise<Rec[]> {
      const pages = await walkPages<Rec>((cursor) =>
        get(
          `${resource}?ShopCode=${SHOP}&From=${from}&To=${to}&Limit=2` +
            (cursor ? `&Cursor=${encodeURIComponent(cursor)}` : ''),
        ),
      );
      return pages.flatMap((page) => page.data);
    }

    it.each(RESOURCES)(
      'should give every date of a 92-day period of %s an entry, whose checksum is the one computed from the list endpoint records',
      async (resource) => {
        const days = await digest(resource, '2026-03-01', '2026-06-01');
        expect(days).toHaveLength(92);
        expect(days[0].date).toBe('2026-03-01');
        expect(days[91].date).toBe('2026-05-31');
        const records = await listed(resource, '2026-03-01', '2026-06-01');
        // Every row of the shop (all in the period) as the table holds it now: the tests below
        // void, change and delete rows, and jest may run them first (--randomize).
        const stored: Array<{ id: string | number }> = await ctx.db.db.query(
          `SELECT id FROM ${TABLE[resource][0]} WHERE shop_code = ?`,
          [SHOP],
        );
        expect(stored.length).toBeGreaterThanOrEqual(5);
        expect(records.map((r) => r.id).sort()).toEqual(stored.map((r) => String(r.id)).sort());
        let date = '2026-03-01';
        for (const day of days) {
          expect(day.date).toBe(date);
          const own = records.filter((r) => String(r[DATED_BY[resource]]).startsWith(date));
          expect({ date, count: day.count, checksum: day.checksum }).toEqual({
            date,
            count: own.length,
            checksum: checksumOf(own),
          });
          date = nextDate(date);
        }
        // The fixture's dates, edges included (00:00:00.000 and 23:59:59.999 on 2 March), for
        // the rows still stored (a test below deletes one).
        const fixture: Record<string, string> = {
          '5': '2026-03-02',
          '3': '2026-03-02',
          '4': '2026-03-02',
          '6': '2026-03-04',
          '1': '2026-03-31',
          '2': '2026-05-31',
        };
        const expected = new Map<string, number>();
        for (const { id } of stored) {
          const date = fixture[String(id)];
          expected.set(date, (expected.get(date) ?? 0) + 1);
        }
        expect(days.filter((d) => d.count > 0).map((d) => [d.date, d.count])).toEqual(
          [...expected].sort(([a], [b]) => a.localeCompare(b)),
        );
        expect(days.filter((d) => d.count === 0).every((d) => d.checksum === EMPTY)).toBe(true);
      },
    );

    it('should re-read a day exactly with the list from that date to the next', async () => {
      const [day] = await digest('sales', '2026-03-02', '2026-03-03');
      const records = await listed('sales', '2026-03-02', '2026-03-03');
      expect(records.map((r) => r.id)).toEqual(['5', '3', '4']);
      expect(day).toEqual({ date: '2026-03-02', count: 3, checksum: checksumOf(records) });
    });

    /** Applies `change`, then expects exactly the dates `changed` to have new checksums. */
    async function expectOnlyChanged(
      resource: Resource,
      change: () => Promise<unknown>,
      changed: string[],
    ): Promise<void> {
      const before = await digest(resource, '2026-03-01', '2026-04-01');
      await change();
      const after = await digest(resource, '2026-03-01', '2026-04-01');
      const differing = after
        .filter((d, i) => d.checksum !== before[i].checksum)
        .map((d) => d.date);
      expect(differing).toEqual(changed);
    }

    it('should change only the day of a voided sale (an UPDATE of its status)', async () => {
      await expectOnlyChanged(
        'sales',
        () => ctx.db.db.query("UPDATE pos_sales SET status = 'VOIDED' WHERE id = 6"),
        ['2026-03-04'],
      );
    });

    it('should change only the day of a sale one of whose line amounts changed', async () => {
      await expectOnlyChanged(
        'sales',
        () =>
          ctx.db.db.query(
            "UPDATE pos_sale_lines SET net = '4.99' WHERE sale_id = 3 AND line_no = 2",
          ),
        ['2026-03-02'],
      );
    });

    it('should change only the day of a payment whose reference was corrected', async () => {
      await expectOnlyChanged(
        'payments',
        () => ctx.db.db.query("UPDATE pos_payments SET reference = 'AUTH-42' WHERE id = 1"),
        ['2026-03-31'],
      );
    });

    it('should change only the day of a deleted cash movement, and lower its count', async () => {
      const before = await digest('cash-movements', '2026-03-02', '2026-03-03');
      await expectOnlyChanged(
        'cash-movements',
        () => ctx.db.db.query('DELETE FROM pos_cash_movements WHERE id = 4'),
        ['2026-03-02'],
      );
      const after = await digest('cash-movements', '2026-03-02', '2026-03-03');
      expect(after[0].count).toBe(before[0].count - 1);
    });

    it.each(RESOURCES)(
      'should answer {"data": []} for a shop of %s outside the claims',
      async (resource) => {
        for (const shop of [OTHER, 'NOSUCH', SHOP.toLowerCase()]) {
          const res = await get(
            `${resource}/digest?ShopCode=${shop}&From=2026-03-01&To=2026-03-05`,
          );
          expect({ shop, status: res.status, body: res.body }).toEqual({
            shop,
            status: 200,
            body: { version: NEWEST_DIGEST_VERSION, data: [] },
          });
        }
      },
    );

    it('should answer an empty period (From equal to To) with no date', async () => {
      expect(await digest('payments', '2026-03-02', '2026-03-02')).toEqual([]);
    });

    it.each([
      ['From=2026-03-01&To=2026-06-02', 'To', 'more than 92 days'],
      ['From=2026-03-05&To=2026-03-01', 'To', 'To before From'],
      ['From=2026-02-30&To=2026-03-01', 'From', 'an impossible date'],
      ['From=2026-03-01T00:00:00&To=2026-03-02', 'From', 'a date-time'],
      ['From=2026-03-01&To=2026-03-02Z', 'To', 'a zone'],
      ['From=0999-12-01&To=0999-12-02', 'From', 'a year before 1000'],
      ['To=2026-03-02', 'From', 'From missing'],
      ['From=2026-03-01&To=2026-03-02&Limit=5', 'Limit', 'an unknown parameter'],
      ['From=2026-03-01&To=2026-03-02&from=2026-03-01', 'From', 'a repeated parameter'],
    ])('should refuse %s with a 400 problem naming %s (%s)', async (query, field) => {
      const res = await get<{ errors: Array<{ field: string }> }>(
        `sales/digest?ShopCode=${SHOP}&${query}`,
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.errors.map((e) => e.field)).toContain(field);
    });

    it('should require ShopCode', async () => {
      const res = await get<{ errors: Array<{ field: string }> }>(
        'cash-movements/digest?From=2026-03-01&To=2026-03-02',
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'ShopCode' })]);
    });

    it('should ask for a bearer token with the ApiUser role', async () => {
      const query = `ShopCode=${SHOP}&From=2026-03-01&To=2026-03-02`;
      expect((await http(api.baseUrl, `/api/v1.0/sales/digest?${query}`)).status).toBe(401);
      const noRole = forgeToken({ claims: { sub: 'norole', role: [], shop_code: [SHOP] } });
      expect((await get(`payments/digest?${query}`, noRole)).status).toBe(403);
    });
  },
);
