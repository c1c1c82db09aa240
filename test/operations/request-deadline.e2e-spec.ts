import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http, HttpResult } from '../support/http';
import { OpsApp, sample, startOpsApp } from './support/management';
import { gateQueries } from './support/query-gate';
import { TcpProxy } from './support/tcp-proxy';
import { eventually } from '../support/eventually';

/** A short deadline keeps the spec fast (the default is 15 s). */
const DEADLINE_MS = 1_500;
/** Issue 27: a request past its deadline is answered within the deadline plus a second. */
const PROMPT_MS = DEADLINE_MS + 1_000;
/** Added to every chunk either way by the proxy: one query's round trip takes 2 s. */
const LATENCY_MS = 1_000;

const SALES = '/api/v1.0/sales';
const REPORT = '/api/v1.0/TransactionDetailReport?From=2026-03-01&To=2026-03-08';
const TOKEN = '/api/v1.0/Token';
const SHED = 'pos_api_requests_shed_total';

jest.setTimeout(120_000);

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await call();
  return { result, ms: Date.now() - started };
}

function expectShed(res: HttpResult, ms: number): void {
  expect({ status: res.status, prompt: ms < PROMPT_MS }).toEqual({ status: 503, prompt: true });
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.body).toMatchObject({ status: 503, title: 'Service Unavailable' });
  expect(res.body.detail).toMatch(/deadline/);
  expect(res.body.requestId).toEqual(expect.any(String));
  expect(res.text).not.toMatch(/ECONN|ETIMEDOUT|PROTOCOL|SELECT|KILL|127\.0\.0\.1|at /);
}

async function shedCount(ops: OpsApp): Promise<number> {
  return sample((await http(ops.managementUrl, '/metrics')).text, SHED, { reason: 'deadline' });
}

/** The requests shed rise to `expected`: counted at the edge once each answer has left. */
async function expectShedCount(ops: OpsApp, expected: number): Promise<void> {
  await eventually(async () => (await shedCount(ops)) >= expected, 3_000);
  expect(await shedCount(ops)).toBe(expected);
}

describeEachDatabase('Request deadline (REQUEST_DEADLINE_MS)', (ctx) => {
  let ops: OpsApp;
  let token: string;
  let shop: string;
  let user: { username: string; password: string };

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    user = await createUser(ctx.db.db, { shops: [shop] });
    ops = await startOpsApp(ctx.db, { REQUEST_DEADLINE_MS: String(DEADLINE_MS) });
    token = await getToken(ops.baseUrl, user.username, user.password);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await ops?.close();
  });

  const data = (app: OpsApp, path: string) => http(app.baseUrl, path, { headers: bearer(token) });

  it('should count no request shed before any is', async () => {
    // An instance of its own: the shared one may have shed requests already (jest --randomize).
    const fresh = await startOpsApp(ctx.db, { REQUEST_DEADLINE_MS: String(DEADLINE_MS) });
    try {
      const metrics = (await http(fresh.managementUrl, '/metrics')).text;
      expect(metrics).toContain(`${SHED}{reason="deadline"} 0`);
    } finally {
      await fresh.close();
    }
  });

  it('should answer a page whose read is held past the deadline 503 with Retry-After within the deadline plus a second, count it, and serve the next', async () => {
    const before = await shedCount(ops);
    const gate = gateQueries(ops.app, /\bpos_sales\b/);
    try {
      const { result, ms } = await timed(() => data(ops, `${SALES}?ShopCode=${shop}`));
      expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expectShed(result, ms);
    } finally {
      gate.open();
      jest.restoreAllMocks();
    }
    await expectShedCount(ops, before + 1);
    expect((await data(ops, `${SALES}?ShopCode=${shop}`)).status).toBe(200);
  });

  it('should not cut a feed held by Wait: the deadline bounds its reads, not the hold', async () => {
    const before = await shedCount(ops);
    const { result, ms } = await timed(() => data(ops, `${SALES}/feed?ShopCode=${shop}&Wait=3`));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ data: [], caughtUp: true });
    expect(ms).toBeGreaterThanOrEqual(2_900);
    expect(await shedCount(ops)).toBe(before);
  });

  if (ctx.kind !== 'mysql') return;

  it('should cancel on the server a query past the deadline (KILL QUERY), not leave it waiting', async () => {
    const locker = ctx.db.db.createQueryRunner();
    const waitingOnTheLock = async (): Promise<number> => {
      const rows = await ctx.db.db.query<Array<{ n: string | number }>>(
        `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
          WHERE DB = DATABASE() AND STATE LIKE 'Waiting for table%'`,
      );
      return Number(rows[0].n);
    };
    await locker.query('LOCK TABLES pos_sales WRITE');
    try {
      const { result, ms } = await timed(() => data(ops, `${SALES}?ShopCode=${shop}`));
      expectShed(result, ms);
      // Without the KILL the statement would wait for the lock as long as it is held.
      await eventually(async () => (await waitingOnTheLock()) === 0, 3_000);
    } finally {
      await locker.query('UNLOCK TABLES');
      await locker.release();
    }
    expect((await data(ops, `${SALES}?ShopCode=${shop}`)).status).toBe(200);
  });

  describe('behind a TCP proxy that adds latency [mariadb]', () => {
    let proxy: TcpProxy;
    let slow: OpsApp;

    beforeAll(async () => {
      let viaProxy: string;
      ({ proxy, viaProxy } = await TcpProxy.inFrontOf(ctx.db.appDatabaseUrl as string));
      slow = await startOpsApp(
        { ...ctx.db, appDatabaseUrl: viaProxy },
        { REQUEST_DEADLINE_MS: String(DEADLINE_MS) },
      );
    });
    afterAll(async () => {
      proxy?.delay(0);
      await slow?.close();
      await proxy?.close();
    });

    const signIn = () =>
      http(slow.baseUrl, TOKEN, {
        method: 'POST',
        json: { username: user.username, password: user.password },
      });
    const routes: Array<[string, () => Promise<HttpResult>]> = [
      ['a page', () => data(slow, `${SALES}?ShopCode=${shop}`)],
      ['a feed', () => data(slow, `${SALES}/feed?ShopCode=${shop}`)],
      ['the report', () => data(slow, `${REPORT}&ShopCode=${shop}`)],
      ['the token route', signIn],
    ];

    it('should answer 200 before the latency', async () => {
      for (const [, call] of routes) expect((await call()).status).toBe(200);
    });

    it('should answer pages, feeds, the report and the token route 503 within the deadline plus a second, and 200 again without a restart once the latency is gone', async () => {
      const before = await shedCount(slow);
      proxy.delay(LATENCY_MS);
      for (const [name, call] of routes) {
        const { result, ms } = await timed(call);
        expect({ name, status: result.status }).toEqual({ name, status: 503 });
        expectShed(result, ms);
      }
      await expectShedCount(slow, before + routes.length);
      proxy.delay(0);
      await eventually(async () => (await data(slow, SALES)).status === 200, 30_000);
      for (const [name, call] of routes) {
        expect({ name, status: (await call()).status }).toEqual({ name, status: 200 });
      }
    });
  });
});
