import { freePort } from '../support/service-process';
import { instancesSharingRedis } from '../support/shared-redis';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { redis as redisServer } from '../support/requirements';
import { startTestApp, TestApp } from '../support/test-app';
import { getReport, reportToken } from './report-fixtures';

const PERIOD = { From: '2026-03-01', To: '2026-03-08' };
const PROBLEM = /^application\/problem\+json/;

// The Redis of TEST_REDIS_URL (`.ci/run` starts the machine's): shared with other specs, so only
// this block's keys (its own prefix) are touched.
describeEachDatabase(
  'TransactionDetailReport: the limit across instances (Redis)',
  (ctx) => {
    const instances = instancesSharingRedis(ctx);
    let shop: string;

    beforeAll(async () => {
      shop = await createShop(ctx.db.db);
    });

    it('should allow 12 calls a minute in total across two instances sharing Redis, not 24', async () => {
      const user = await createUser(ctx.db.db, { shops: [shop] });
      const token = await getToken(instances.first.baseUrl, user.username, user.password);
      for (let call = 1; call <= 12; call++) {
        const instance = call % 2 === 0 ? instances.second : instances.first;
        const res = await getReport(instance.baseUrl, token, PERIOD);
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-remaining')).toBe(String(12 - call));
      }
      for (const instance of [instances.first, instances.second]) {
        const refused = await getReport(instance.baseUrl, token, PERIOD);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('content-type')).toMatch(PROBLEM);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      }
      const keys = await instances.redis.keys(`${instances.prefix}*`);
      expect(keys.length).toBeGreaterThan(0);
    });

    it('should keep counting users apart in Redis', async () => {
      const a = reportToken([shop]);
      const b = reportToken([shop]);
      await getReport(instances.first.baseUrl, a, PERIOD);
      const res = await getReport(instances.second.baseUrl, b, PERIOD);
      expect(res.headers.get('ratelimit-remaining')).toBe('11');
      expect(
        (await getReport(instances.first.baseUrl, a, PERIOD)).headers.get('ratelimit-remaining'),
      ).toBe('10');
    });
  },
  { requires: [redisServer] },
);

describeEachDatabase('TransactionDetailReport: Redis configured but down', (ctx) => {
  let api: TestApp;
  let shop: string;
  let startMs: number;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    const started = Date.now();
    // A port nothing listens on: Redis configured but unreachable.
    api = await startTestApp(ctx.db, { REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    startMs = Date.now() - started;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('should answer the report 503 problem+json with Retry-After: the limit is never dropped', async () => {
    for (let call = 0; call < 3; call++) {
      const started = Date.now();
      const res = await getReport(api.baseUrl, reportToken([shop]), PERIOD);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(PROBLEM);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body).toMatchObject({ status: 503, title: 'Service unavailable' });
      expect(res.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|redis/i);
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it('should keep the token route and the cursor endpoints working, and start without waiting', async () => {
    expect(startMs).toBeLessThan(5000);
    const user = await createUser(ctx.db.db, { shops: [shop] });
    const token = await getToken(api.baseUrl, user.username, user.password);
    for (const path of ['/api/v1.0/sales', '/api/v1.0/payments', '/api/v1.0/cash-movements']) {
      expect((await http(api.baseUrl, path, { headers: bearer(token) })).status).toBe(200);
    }
  });
});
