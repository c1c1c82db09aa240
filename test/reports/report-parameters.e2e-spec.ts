import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { getReport, REPORT, reportToken } from './report-fixtures';

const PROBLEM = /^application\/problem\+json/;

describeEachDatabase('TransactionDetailReport: parameter and range errors are 400', (ctx) => {
  let api: TestApp;
  let shop: string;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const expect400 = async (params: Record<string, string>, fields: string[], detail?: RegExp) => {
    const res = await getReport(api.baseUrl, reportToken([shop]), params);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(PROBLEM);
    expect(res.body).toMatchObject({ status: 400, instance: REPORT });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
    if (detail) expect(res.body.detail).toMatch(detail);
  };

  it('should require From and To', async () => {
    await expect400({}, ['From', 'To'], /required/);
    await expect400({ From: '2026-03-01' }, ['To']);
    await expect400({ To: '2026-03-01', ShopCode: shop }, ['From']);
  });

  it('should refuse a period longer than 31 days, and accept exactly 31', async () => {
    await expect400({ From: '2026-03-01', To: '2026-04-01T00:00:00.001' }, ['To'], /31 days/);
    await expect400({ From: '2026-01-01', To: '2026-12-31' }, ['To']);
    const ok = await getReport(api.baseUrl, reportToken([shop]), {
      From: '2026-03-01',
      To: '2026-04-01',
    });
    expect(ok.status).toBe(200);
  });

  it('should refuse a zone designator, an impossible date and a malformed date-time', async () => {
    await expect400({ From: '2026-03-01T00:00:00Z', To: '2026-03-02' }, ['From'], /zone/);
    await expect400({ From: '2026-03-01', To: '2026-03-02T00:00:00+01:00' }, ['To'], /zone/);
    await expect400({ From: '2026-02-30', To: '2026-03-02' }, ['From']);
    await expect400({ From: '01/03/2026', To: '2026-03-02' }, ['From']);
  });

  it('should refuse From after To', async () => {
    await expect400({ From: '2026-03-02', To: '2026-03-01T23:59:59.999' }, ['From'], /after To/);
  });

  it('should refuse unknown and repeated parameters, naming them (names are case-insensitive)', async () => {
    await expect400({ From: '2026-03-01', To: '2026-03-02', Cursor: 'abc' }, ['Cursor']);
    await expect400({ From: '2026-03-01', To: '2026-03-02', Limit: '10' }, ['Limit']);
    await expect400({ from: '2026-03-01', to: '2026-03-02', shop: shop }, ['shop']);
    const repeated = await http(
      api.baseUrl,
      `${REPORT}?From=2026-03-01&To=2026-03-02&to=2026-03-03`,
      { headers: { Authorization: `Bearer ${reportToken([shop])}` } },
    );
    expect(repeated.status).toBe(400);
    expect(repeated.body.errors).toEqual([{ field: 'To', message: 'given more than once' }]);
    const lower = await getReport(api.baseUrl, reportToken([shop]), {
      from: '2026-03-01',
      TO: '2026-03-02',
      shopcode: shop,
    });
    expect(lower.status).toBe(200);
  });

  it('should answer 401 without a token and 403 without the ApiUser role, as every data route', async () => {
    const anonymous = await http(api.baseUrl, `${REPORT}?From=2026-03-01&To=2026-03-02`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const noRole = await getReport(
      api.baseUrl,
      forgeToken({ claims: { sub: 'no-role', role: ['Cashier'], shop_code: [shop] } }),
      { From: '2026-03-01', To: '2026-03-02' },
    );
    expect(noRole.status).toBe(403);
    expect(noRole.headers.get('content-type')).toMatch(PROBLEM);
  });
});
