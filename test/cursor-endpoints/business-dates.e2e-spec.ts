import { DEMO_BAR } from '../../tools/seed/demo-data';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { checksumOf, type Rec } from '../digests/support/checksum-rule';
import { REPORT, reportToken } from '../reports/report-fixtures';
import { insertCashMovement, insertSale, walkPages } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { bearer, http } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { RESOURCES, SYNCED_RESOURCES, YEAR } from './resource-tables';

type Record_ = Rec & { shopCode: string; businessDate: string };

const PROBLEM = /^application\/problem\+json/;
/** Both changes of the clock of 2026 in Madrid, and a whole month. */
const SPRING = ['2026-03-28', '2026-03-30'] as const;
const FALL = ['2026-10-24', '2026-10-26'] as const;
const MONTH = ['2026-10-01', '2026-11-01'] as const;
const inRange = (date: string, [from, to]: readonly string[]) => date >= from && date < to;

/**
 * Issue 42, item 2: BusinessDateFrom and BusinessDateTo on the lists, the digests and the
 * report. A walk by business date is the wide walk's records whose businessDate is in range,
 * once each, on a bar whose nights run past midnight and cross both changes of the clock.
 */
describeEachDatabase('Business-day filters', (ctx) => {
  let api: TestApp;
  let shops: string[];
  let foreign: string;
  let token: string;

  beforeAll(async () => {
    const generate = { seed: 4202, salesPerDay: 16, days: 6 };
    let normal: string[] = [];
    for (const startDate of ['2026-03-26', '2026-10-22']) {
      normal = (await seedBusinessData(ctx.db.db, { ...generate, shops: 2, startDate })).shopCodes;
      await seedBusinessData(ctx.db.db, { ...generate, shops: [DEMO_BAR], startDate });
    }
    shops = [normal[0], DEMO_BAR.code];
    foreign = normal[1];
    token = forgeToken({ claims: { sub: 'business-days', shop_code: shops } });
    api = await startTestApp(ctx.db);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  const get = (path: string) => http(api.baseUrl, path, { headers: bearer(token) });
  const walk = async (route: string, query: string, limit: number): Promise<Record_[]> => {
    const pages = await walkPages<Record_>((cursor) =>
      get(
        `/api/v1.0/${route}?` +
          (cursor
            ? `Cursor=${encodeURIComponent(cursor)}&Limit=${limit}`
            : `${query}&Limit=${limit}`),
      ),
    );
    return pages.flatMap((page) => page.data);
  };
  const byDates = (range: readonly string[]) =>
    `BusinessDateFrom=${range[0]}&BusinessDateTo=${range[1]}`;
  const scopeOf = (shop: string | null) => (shop ? `ShopCode=${shop}&` : '');

  describe.each(RESOURCES)('GET /%s', (route) => {
    it.each([
      ['the bar', DEMO_BAR.code, SPRING],
      ['the bar', DEMO_BAR.code, FALL],
      ['every claimed shop', null, FALL],
      ['every claimed shop', null, MONTH],
    ])(
      'should walk exactly the records of %s whose businessDate is in %#, once, in order',
      async (_, shop, range) => {
        const wide = await walk(route, `${scopeOf(shop)}${YEAR}`, 500);
        const expected = wide.filter((r) => inRange(r.businessDate, range));
        const walked = await walk(route, `${scopeOf(shop)}${byDates(range)}`, 7);
        expect(expected.length).toBeGreaterThan(0);
        expect(walked.map((r) => r.id)).toEqual(expected.map((r) => r.id));
        expect(walked).toEqual(expected);
        expect(new Set(walked.map((r) => r.id)).size).toBe(walked.length);
        expect(walked.every((r) => shops.includes(r.shopCode))).toBe(true);
      },
    );

    it('should answer an empty page for a shop outside the claims, and for an empty range', async () => {
      for (const query of [
        `ShopCode=${foreign}&${byDates(FALL)}`,
        `${byDates([FALL[0], FALL[0]])}`,
      ]) {
        const res = await get(`/api/v1.0/${route}?${query}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ data: [], nextCursor: null });
      }
    });
  });

  it("should keep the bar's nights whole: sales and cash movements past midnight on the evening's date", async () => {
    for (const route of ['sales', 'cash-movements']) {
      const records = await walk(route, `ShopCode=${DEMO_BAR.code}&${byDates(FALL)}`, 500);
      const time = route === 'sales' ? 'soldAt' : 'movedAt';
      const pastMidnight = records.filter((r) => String(r[time]).slice(0, 10) !== r.businessDate);
      expect(pastMidnight.length).toBeGreaterThan(0);
      expect(records.every((r) => inRange(r.businessDate, FALL))).toBe(true);
    }
  });

  it('should give each in-range record once under concurrent inserts, and none outside', async () => {
    const shop = DEMO_BAR.code;
    const [register] = await ctx.db.db.query<Array<{ register_code: string }>>(
      'SELECT register_code FROM pos_cash_movements WHERE shop_code = ? LIMIT 1',
      [shop],
    );
    for (const route of ['sales', 'cash-movements']) {
      const seen: Record_[] = [];
      let cursor: string | null = null;
      let page = 0;
      let behind = '';
      do {
        const query: string = cursor
          ? `Cursor=${encodeURIComponent(cursor)}&Limit=5`
          : `ShopCode=${shop}&${byDates(FALL)}&Limit=5`;
        const res = await get(`/api/v1.0/${route}?${query}`);
        expect(res.status).toBe(200);
        seen.push(...(res.body.data as Record_[]));
        cursor = res.body.nextCursor as string | null;
        if (page++ !== 2) continue;
        const first = seen[0];
        behind = route === 'sales' ? '990001' : '990011';
        if (route === 'sales') {
          const at = String(first.soldAt).replace('T', ' ');
          // Behind the cursor (never shown), ahead of it in range (shown once), ahead of it
          // within the walk's time range but of another business date (never shown).
          const inserts: Array<[bigint, string, string]> = [
            [990001n, at, '2026-10-24'],
            [990002n, '2026-10-25 23:00:00.000', '2026-10-25'],
            [990003n, '2026-10-25 21:00:00.000', '2026-10-27'],
          ];
          for (const [id, soldAt, businessDate] of inserts) {
            await insertSale(ctx.db.db, { id, shopCode: shop, soldAt, businessDate });
          }
        } else {
          const at = String(first.movedAt).replace('T', ' ');
          const registerCode = register.register_code;
          const movement = { shopCode: shop, registerCode, amount: '1.00' };
          await insertCashMovement(ctx.db.db, { ...movement, id: 990011n, movedAt: at });
          // Between two nights: outside any session, dated by its own time.
          await insertCashMovement(ctx.db.db, {
            ...movement,
            id: 990012n,
            movedAt: '2026-10-25 12:00:00.000',
          });
          await insertCashMovement(ctx.db.db, {
            ...movement,
            id: 990013n,
            movedAt: '2026-10-26 12:00:00.000',
          });
        }
      } while (cursor);
      const after = (await walk(route, `ShopCode=${shop}&${YEAR}`, 500)).filter((r) =>
        inRange(r.businessDate, FALL),
      );
      const ids = seen.map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(after.map((r) => r.id).filter((id) => id !== behind));
      expect(ids).toContain(route === 'sales' ? '990002' : '990012');
      expect(ids).not.toContain(route === 'sales' ? '990003' : '990013');
    }
  });

  describe.each(SYNCED_RESOURCES)('GET /%s/digest', (route) => {
    it.each([[DEMO_BAR.code], ['first']])(
      'should give one entry per business date, the checksum of its records (%s)',
      async (which) => {
        const shop = which === 'first' ? shops[0] : which;
        const range = ['2026-10-21', '2026-10-29'];
        const records = (await walk(route, `ShopCode=${shop}&${YEAR}`, 500)).filter((r) =>
          inRange(r.businessDate, range),
        );
        const res = await get(`/api/v1.0/${route}/digest?ShopCode=${shop}&${byDates(range)}`);
        expect(res.status).toBe(200);
        const dates = ['21', '22', '23', '24', '25', '26', '27', '28'].map((d) => `2026-10-${d}`);
        expect(res.body.data).toEqual(
          dates.map((date) => {
            const own = records.filter((r) => r.businessDate === date);
            return { date, count: own.length, checksum: checksumOf(own) };
          }),
        );
        expect(res.body.data.some((d: { count: number }) => d.count > 0)).toBe(true);
      },
    );

    it('should answer {"data": []} for a shop outside the claims', async () => {
      const res = await get(`/api/v1.0/${route}/digest?ShopCode=${foreign}&${byDates(FALL)}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    });
  });

  it("should report by business date the lines of the walk's sales", async () => {
    for (const shop of [DEMO_BAR.code, null]) {
      const sales = await walk('sales', `${scopeOf(shop)}${byDates(FALL)}`, 500);
      const res = await http(api.baseUrl, `${REPORT}?${scopeOf(shop)}${byDates(FALL)}`, {
        headers: bearer(reportToken(shops)),
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        from: '2026-10-24T00:00:00.000',
        to: '2026-10-26T00:00:00.000',
        businessDateFrom: FALL[0],
        businessDateTo: FALL[1],
      });
      const lines = sales.flatMap((s) =>
        (s.lines as Array<{ lineNo: number }>).map((l) => `${s.id}/${l.lineNo}`),
      );
      const rows = res.body.rows.map(
        (r: { saleId: string; lineNo: number }) => `${r.saleId}/${r.lineNo}`,
      );
      expect(lines.length).toBeGreaterThan(0);
      expect(rows).toEqual(lines);
    }
  });

  const badQueries: Array<[string, string, string]> = [
    ['a bad date', 'BusinessDateFrom=2026-02-30&BusinessDateTo=2026-03-02', 'BusinessDateFrom'],
    [
      'a date-time',
      'BusinessDateFrom=2026-03-01T00:00&BusinessDateTo=2026-03-02',
      'BusinessDateFrom',
    ],
    ['a reversed range', 'BusinessDateFrom=2026-03-02&BusinessDateTo=2026-03-01', 'BusinessDateTo'],
    ['a too long range', 'BusinessDateFrom=2026-01-01&BusinessDateTo=2026-06-01', 'BusinessDateTo'],
    ['both pairs', `From=2026-03-01&To=2026-03-02&${byDates(SPRING)}`, 'From'],
    ['half a pair', 'BusinessDateFrom=2026-03-01', 'BusinessDateTo'],
    ['the other half', 'BusinessDateTo=2026-03-01', 'BusinessDateFrom'],
    ['an unknown parameter', `${byDates(SPRING)}&BusinessDay=2026-03-01`, 'BusinessDay'],
  ];
  const endpoints = [
    ...RESOURCES.map((route) => `/api/v1.0/${route}?`),
    ...SYNCED_RESOURCES.map((route) => `/api/v1.0/${route}/digest?ShopCode=${DEMO_BAR.code}&`),
    `${REPORT}?`,
  ];
  it.each(badQueries)(
    'should refuse %s with a 400 problem naming it, everywhere',
    async (_, query, field) => {
      for (const endpoint of endpoints) {
        const res = await http(api.baseUrl, `${endpoint}${query}`, {
          headers: bearer(endpoint.startsWith(REPORT) ? reportToken(shops) : token),
        });
        expect({ endpoint, status: res.status }).toEqual({ endpoint, status: 400 });
        expect(res.headers.get('content-type')).toMatch(PROBLEM);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
    },
  );

  it('should refuse a range of more than 31 business days in the report, and 92 in the lists', async () => {
    const report = await http(api.baseUrl, `${REPORT}?${byDates(['2026-03-01', '2026-04-02'])}`, {
      headers: bearer(reportToken(shops)),
    });
    expect(report.status).toBe(400);
    expect(report.body.errors).toEqual([
      { field: 'BusinessDateTo', message: 'must be at most 31 days after BusinessDateFrom' },
    ]);
    expect((await get(`/api/v1.0/sales?${byDates(['2026-03-01', '2026-06-01'])}`)).status).toBe(
      200,
    );
  });

  it("should refuse a cursor by business date given From or other dates, and keep ShopCode's", async () => {
    const first = await get(`/api/v1.0/sales?ShopCode=${DEMO_BAR.code}&${byDates(FALL)}&Limit=2`);
    const cursor = encodeURIComponent(first.body.nextCursor as string);
    for (const extra of ['From=2026-10-24', `${byDates(SPRING)}`]) {
      const res = await get(`/api/v1.0/sales?Cursor=${cursor}&${extra}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(PROBLEM);
    }
    const again = await get(`/api/v1.0/sales?Cursor=${cursor}&${byDates(FALL)}`);
    expect(again.status).toBe(200);
  });
});
