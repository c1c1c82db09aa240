import { DataSource } from 'typeorm';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http, HttpResult } from '../support/http';
import { OpsApp, startOpsApp } from './support/management';
import { TcpProxy } from './support/tcp-proxy';
import { eventually } from '../support/eventually';

const SALES = '/api/v1.0/sales';
const PAYMENTS = '/api/v1.0/payments';
const SHOPS = '/api/v1.0/shops';
const CASH_MOVEMENTS = '/api/v1.0/cash-movements';
const REPORT = '/api/v1.0/TransactionDetailReport?From=2026-03-01&To=2026-03-08';
const TOKEN = '/api/v1.0/Token';
/** "Within a few seconds": connect timeout 1 s, query timeout 1.5 s in these tests. */
const FAST_MS = 4_000;

jest.setTimeout(60_000);

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await call();
  return { result, ms: Date.now() - started };
}

function expectUnavailable(res: HttpResult, ms: number): void {
  expect({ status: res.status, fast: ms < FAST_MS }).toEqual({ status: 503, fast: true });
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.body).toMatchObject({ status: 503, title: 'Service Unavailable' });
  expect(res.body.requestId).toEqual(expect.any(String));
  expect(res.text).not.toMatch(/ECONN|ETIMEDOUT|PROTOCOL|SELECT|127\.0\.0\.1/);
}

describeEachDatabase('Database outages', (ctx) => {
  it('should report not ready, naming the database, and stay alive when its connection is gone', async () => {
    const ops = await startOpsApp(ctx.db);
    try {
      await ops.app.get(DataSource).destroy();
      const ready = await http(ops.managementUrl, '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({
        status: 'error',
        error: { database: { status: 'down' } },
      });
      expect((await http(ops.managementUrl, '/health/live')).status).toBe(200);
    } finally {
      await ops.close().catch(() => undefined);
    }
  });

  if (ctx.kind !== 'mysql') return;

  describe('behind a TCP proxy that the test cuts and restores [mariadb]', () => {
    let proxy: TcpProxy;
    let ops: OpsApp;
    let token: string;
    let user: { username: string; password: string };
    let shop: string;

    beforeAll(async () => {
      let viaProxy: string;
      ({ proxy, viaProxy } = await TcpProxy.inFrontOf(ctx.db.appDatabaseUrl as string));
      shop = await createShop(ctx.db.db);
      user = await createUser(ctx.db.db, { shops: [shop] });
      ops = await startOpsApp(
        { ...ctx.db, appDatabaseUrl: viaProxy },
        { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_QUERY_TIMEOUT_MS: '1500' },
      );
      token = await getToken(ops.baseUrl, user.username, user.password);
    });
    afterAll(async () => {
      await ops?.close();
      await proxy?.close();
    });

    const data = (path: string) => http(ops.baseUrl, path, { headers: bearer(token) });
    const signIn = () =>
      http(ops.baseUrl, TOKEN, {
        method: 'POST',
        json: { username: user.username, password: user.password },
      });

    const expectOutage = async () => {
      for (const call of [
        () => data(`${SALES}?ShopCode=${shop}`),
        () => data(PAYMENTS),
        () => data(CASH_MOVEMENTS),
        () => data(SHOPS),
        () => data(REPORT),
        signIn,
      ]) {
        const { result, ms } = await timed(call);
        expectUnavailable(result, ms);
      }
      const { result: ready, ms } = await timed(() => http(ops.managementUrl, '/health/ready'));
      expect({ status: ready.status, fast: ms < FAST_MS }).toEqual({ status: 503, fast: true });
      expect(ready.body.error.database.status).toBe('down');
      expect((await http(ops.managementUrl, '/health/live')).status).toBe(200);
    };

    const expectRecovery = async () => {
      await eventually(async () => (await data(`${SALES}?ShopCode=${shop}`)).status === 200);
      expect((await signIn()).status).toBe(200);
      expect((await data(PAYMENTS)).status).toBe(200);
      expect((await data(CASH_MOVEMENTS)).status).toBe(200);
      expect((await data(REPORT)).status).toBe(200);
      expect((await http(ops.managementUrl, '/health/ready')).status).toBe(200);
    };

    it('should answer 200 before any outage', async () => {
      expect((await data(SALES)).status).toBe(200);
      expect((await http(ops.managementUrl, '/health/ready')).status).toBe(200);
    });

    it('should answer 503 problem+json with Retry-After within seconds on every data route (sales, payments, cash movements, shops, the report) and the token route while connections are refused, then recover by itself', async () => {
      await proxy.cut();
      await expectOutage();
      await expectOutage();
      await proxy.restore();
      await expectRecovery();
    });

    it('should answer 503 problem+json with Retry-After within seconds on every data route and the token route while the database hangs (connect and query timeouts), then recover by itself', async () => {
      proxy.freeze();
      await expectOutage();
      await proxy.restore();
      await expectRecovery();
    });
  });
});
