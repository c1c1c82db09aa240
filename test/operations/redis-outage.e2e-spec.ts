import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { redis as redisServer, TEST_REDIS_URL } from '../support/requirements';
import { getReport } from '../reports/report-fixtures';
import { OpsApp, sample, startOpsApp } from './support/management';
import { TcpProxy } from './support/tcp-proxy';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

const PERIOD = { From: '2026-03-01', To: '2026-03-08' };
const DATA_ROUTES = ['/api/v1.0/sales', '/api/v1.0/payments', '/api/v1.0/cash-movements'];

/** Polls until `check` holds (a Redis client notices a cut within a few hundred ms). */
/**
 * Redis cut while the service runs (a TCP proxy in front of TEST_REDIS_URL): the instance stays
 * ready, so a load balancer keeps sending it tokens and data requests, which it serves; only the
 * report and the digests answer 503 (their limits cannot be enforced); pos_api_redis_up says 0,
 * then 1 again.
 */
describeEachDatabase(
  'A Redis outage degrades the report and the digests only, never readiness',
  (ctx) => {
    let proxy: TcpProxy;
    let ops: OpsApp;
    let shop: string;

    beforeAll(async () => {
      let viaProxy: string;
      ({ proxy, viaProxy } = await TcpProxy.inFrontOf(TEST_REDIS_URL, 6379));
      shop = await createShop(ctx.db.db);
      ops = await startOpsApp(ctx.db, {
        REDIS_URL: viaProxy,
        REDIS_KEY_PREFIX: `pos-read-api-test:redis-outage:${process.pid}:${Date.now()}:`,
      });
    });
    afterAll(async () => {
      await ops?.close();
      await proxy?.close();
    });

    const redisUp = async (): Promise<number> =>
      sample((await http(ops.managementUrl, '/metrics')).text, 'pos_api_redis_up');

    it('should stay ready and serve tokens and data while Redis is cut, answer only the report and the digests 503, and recover without a restart', async () => {
      const user = await createUser(ctx.db.db, { shops: [shop] });
      const token = await getToken(ops.baseUrl, user.username, user.password);
      expect(await redisUp()).toBe(1);
      expect((await getReport(ops.baseUrl, token, PERIOD)).status).toBe(200);

      await proxy.cut();
      await eventually(async () => (await redisUp()) === 0, 10_000);
      const ready = await http(ops.managementUrl, '/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.details.redis).toMatchObject({ status: 'down' });
      expect(await getToken(ops.baseUrl, user.username, user.password)).toEqual(expect.any(String));
      for (const path of DATA_ROUTES) {
        expect((await http(ops.baseUrl, path, { headers: bearer(token) })).status).toBe(200);
      }
      const refused = await getReport(ops.baseUrl, token, PERIOD);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      // The digests' budget is counted in Redis too (issue 44): refused alike, never unbounded.
      const digest = await http(
        ops.baseUrl,
        `/api/v1.0/sales/digest?ShopCode=${shop}&From=${PERIOD.From}&To=${PERIOD.To}`,
        {
          headers: bearer(token),
        },
      );
      expect([digest.status, digest.body.detail]).toEqual([
        503,
        'The digest budget cannot be checked right now; retry shortly.',
      ]);

      await proxy.restore();
      await eventually(async () => (await redisUp()) === 1, 10_000);
      await eventually(
        async () => (await getReport(ops.baseUrl, token, PERIOD)).status === 200,
        10_000,
      );
      const readyAgain = await http(ops.managementUrl, '/health/ready');
      expect(readyAgain.body.details.redis).toEqual({ status: 'up' });
    });
  },
  { requires: [redisServer] },
);
