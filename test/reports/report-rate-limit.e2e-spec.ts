import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http, HttpResult } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { getReport, reportToken } from './report-fixtures';

const PERIOD = { From: '2026-03-01', To: '2026-03-08' };
const PROBLEM = /^application\/problem\+json/;

/** Checks the RateLimit header fields and returns Remaining and Reset. */
function rateLimitOf(res: HttpResult): { remaining: number; reset: number } {
  expect(res.headers.get('ratelimit-limit')).toBe('12');
  expect(res.headers.get('ratelimit-policy')).toBe('12;w=60');
  const remaining = Number(res.headers.get('ratelimit-remaining'));
  const reset = Number(res.headers.get('ratelimit-reset'));
  expect(Number.isInteger(remaining)).toBe(true);
  expect(reset).toBeGreaterThanOrEqual(0);
  expect(reset).toBeLessThanOrEqual(60);
  return { remaining, reset };
}

describeEachDatabase('TransactionDetailReport: 12 calls a minute per user', (ctx) => {
  let api: TestApp;
  let shop: string;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('should answer the 13th call in a minute 429 with Retry-After and RateLimit headers, while /sales and /Token still answer 200', async () => {
    const user = await createUser(ctx.db.db, { shops: [shop] });
    const token = await getToken(api.baseUrl, user.username, user.password);
    for (let call = 1; call <= 12; call++) {
      const res = await getReport(api.baseUrl, token, PERIOD);
      expect(res.status).toBe(200);
      expect(rateLimitOf(res).remaining).toBe(12 - call);
    }
    const refused = await getReport(api.baseUrl, token, PERIOD);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(PROBLEM);
    expect(refused.body).toMatchObject({ status: 429, title: 'Too many requests' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const { remaining, reset } = rateLimitOf(refused);
    expect(remaining).toBe(0);
    expect(reset).toBe(retryAfter);

    const sales = await http(api.baseUrl, `/api/v1.0/sales?From=2026-03-01`, {
      headers: bearer(token),
    });
    expect(sales.status).toBe(200);
    expect(sales.headers.get('ratelimit-limit')).toBeNull();
    for (const path of ['/api/v1.0/payments', '/api/v1.0/cash-movements']) {
      expect((await http(api.baseUrl, path, { headers: bearer(token) })).status).toBe(200);
    }
    const fresh = await getToken(api.baseUrl, user.username, user.password);
    expect((await getReport(api.baseUrl, fresh, PERIOD)).status).toBe(429);
  });

  it('should count per user (token sub), not per client address', async () => {
    const busy = reportToken([shop]);
    for (let call = 1; call <= 13; call++) await getReport(api.baseUrl, busy, PERIOD);
    expect((await getReport(api.baseUrl, busy, PERIOD)).status).toBe(429);
    const other = await getReport(api.baseUrl, reportToken([shop]), PERIOD);
    expect(other.status).toBe(200);
    expect(rateLimitOf(other).remaining).toBe(11);
  });

  it('should count every authenticated call, refused parameters included, and no unauthenticated one', async () => {
    const token = reportToken([shop]);
    for (let call = 0; call < 5; call++) {
      await http(api.baseUrl, `/api/v1.0/TransactionDetailReport?From=2026-03-01`, {
        headers: { Authorization: 'Bearer not-a-token' },
      });
    }
    const bad = await getReport(api.baseUrl, token, { From: '2026-03-01' });
    expect(bad.status).toBe(400);
    expect(rateLimitOf(bad).remaining).toBe(11);
    expect(rateLimitOf(await getReport(api.baseUrl, token, PERIOD)).remaining).toBe(10);
  });
});
