import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { redis, requires, TEST_REDIS_URL } from '../support/requirements';
import { OpsApp, sample, startOpsApp } from './support/management';

const TOKEN = '/api/v1.0/Token';
const SALES = '/api/v1.0/sales';
const REPORT = '/api/v1.0/TransactionDetailReport?From=2026-01-01&To=2026-01-02';

describeEachDatabase('Management port: health, readiness and metrics', (ctx) => {
  let ops: OpsApp;
  let shop: string;
  let user: { username: string; password: string };

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    user = await createUser(ctx.db.db, { shops: [shop] });
    ops = await startOpsApp(ctx.db, { LOGIN_MAX_FAILURES: '2', TOKEN_RATE_LIMIT_PER_MINUTE: '7' });
  });
  afterAll(async () => {
    await ops?.close();
  });

  it('should answer /health/live with 200', async () => {
    const res = await http(ops.managementUrl, '/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok' });
  });

  it('should answer /health/ready with 200 when the database answers, naming it up', async () => {
    const res = await http(ops.managementUrl, '/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      info: { database: { status: 'up' }, shutdown: { status: 'up' } },
    });
  });

  it('should not serve /metrics, /health/live or /health/ready on the API port', async () => {
    for (const path of ['/metrics', '/health/live', '/health/ready', '/health']) {
      const res = await http(ops.baseUrl, path);
      expect(res.status).toBe(404);
      expect(res.text).not.toMatch(/pos_api_|"database"/);
    }
  });

  it('should not serve the API on the management port', async () => {
    const res = await http(ops.managementUrl, SALES);
    expect(res.status).toBe(404);
  });

  it('should expose request counts and durations by route template and status, token outcomes, lockouts, report throttles and the pool', async () => {
    const token = await getToken(ops.baseUrl, user.username, user.password);
    const post = (json: unknown) => http(ops.baseUrl, TOKEN, { method: 'POST', json });
    expect((await post({ username: 'nobody-here', password: 'wrong-1' })).status).toBe(401);
    expect((await post({ username: 'nobody-here', password: 'wrong-2' })).status).toBe(401);
    expect((await post({ username: 'nobody-here', password: 'wrong-3' })).status).toBe(429);
    expect((await post({ username: user.username })).status).toBe(400);
    const noRole = await createUser(ctx.db.db, { roles: [] });
    expect((await post({ username: noRole.username, password: noRole.password })).status).toBe(403);
    // The seventh call from this address is over TOKEN_RATE_LIMIT_PER_MINUTE (after 6 counted).
    expect((await post({ username: user.username, password: user.password })).status).toBe(200);
    expect((await post({ username: user.username, password: user.password })).status).toBe(429);

    expect(
      (await http(ops.baseUrl, `${SALES}?ShopCode=${shop}`, { headers: bearer(token) })).status,
    ).toBe(200);
    expect((await http(ops.baseUrl, `${SALES}?Bogus=1`, { headers: bearer(token) })).status).toBe(
      400,
    );
    expect((await http(ops.baseUrl, '/no/such/route')).status).toBe(404);
    let reportStatus = 0;
    for (let i = 0; i < 13 && reportStatus !== 429; i++) {
      reportStatus = (await http(ops.baseUrl, REPORT, { headers: bearer(token) })).status;
    }
    expect(reportStatus).toBe(429);

    const scrape = await http(ops.managementUrl, '/metrics');
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain/);
    const m = scrape.text;
    const requests = (route: string, status: string, method = 'GET') =>
      sample(m, 'pos_api_http_requests_total', { method, route, status });
    expect(requests(SALES, '200')).toBe(1);
    expect(requests(SALES, '400')).toBe(1);
    expect(requests('(unmatched)', '404')).toBeGreaterThanOrEqual(1);
    expect(requests(TOKEN, '200', 'POST')).toBe(2);
    expect(requests(TOKEN, '429', 'POST')).toBe(2);
    expect(
      sample(m, 'pos_api_http_request_duration_seconds_count', { route: SALES, status: '200' }),
    ).toBe(1);
    expect(
      sample(m, 'pos_api_http_request_duration_seconds_bucket', { route: SALES, le: '+Inf' }),
    ).toBe(1);
    expect(sample(m, 'pos_api_tokens_issued_total')).toBe(2);
    expect(sample(m, 'pos_api_tokens_refused_total', { reason: 'invalid_credentials' })).toBe(2);
    expect(sample(m, 'pos_api_tokens_refused_total', { reason: 'locked' })).toBe(1);
    expect(sample(m, 'pos_api_tokens_refused_total', { reason: 'invalid_request' })).toBe(1);
    expect(sample(m, 'pos_api_tokens_refused_total', { reason: 'missing_role' })).toBe(1);
    expect(sample(m, 'pos_api_tokens_refused_total', { reason: 'rate_limited' })).toBe(1);
    expect(sample(m, 'pos_api_login_lockouts_total')).toBe(1);
    expect(sample(m, 'pos_api_report_throttled_total')).toBe(1);
    expect(m).toMatch(/^pos_api_db_pool_connections\{state="in_use"\} \d+$/m);
    expect(sample(m, 'pos_api_db_pool_connections', { state: 'max' })).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'pos_api_http_requests_in_flight')).toBe(0);
    expect(m).toMatch(/^process_cpu_user_seconds_total /m);
  });
});

describeEachDatabase('Readiness with Redis configured', (ctx) => {
  requires(redis).it(
    'should name redis up when REDIS_URL answers, and pos_api_redis_up 1',
    async () => {
      const ops = await startOpsApp(ctx.db, { REDIS_URL: TEST_REDIS_URL });
      try {
        const res = await http(ops.managementUrl, '/health/ready');
        expect(res.status).toBe(200);
        expect(res.body.info.redis).toEqual({ status: 'up' });
        expect(res.body.details.redis).toEqual({ status: 'up' });
        const m = (await http(ops.managementUrl, '/metrics')).text;
        expect(sample(m, 'pos_api_redis_up')).toBe(1);
      } finally {
        await ops.close();
      }
    },
  );

  it('should stay ready (200) when REDIS_URL does not answer, naming redis down and what is degraded, with pos_api_redis_up 0', async () => {
    const ops = await startOpsApp(ctx.db, { REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const res = await http(ops.managementUrl, '/health/ready');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'ok',
        info: { database: { status: 'up' } },
        error: {},
        details: {
          database: { status: 'up' },
          redis: {
            status: 'down',
            degraded: expect.stringMatching(/TransactionDetailReport and the digests answer 503/),
          },
        },
      });
      expect(res.body.info.redis).toBeUndefined();
      const m = (await http(ops.managementUrl, '/metrics')).text;
      expect(m).toMatch(/^pos_api_redis_up 0$/m);
    } finally {
      await ops.close();
    }
  });

  it('should not show pos_api_redis_up without REDIS_URL', async () => {
    const ops = await startOpsApp(ctx.db);
    try {
      const ready = await http(ops.managementUrl, '/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.details.redis).toBeUndefined();
      expect((await http(ops.managementUrl, '/metrics')).text).not.toMatch(/pos_api_redis_up/);
    } finally {
      await ops.close();
    }
  });
});
