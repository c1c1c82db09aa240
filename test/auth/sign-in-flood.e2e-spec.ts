import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http, HttpResult } from '../support/http';
import { OpsApp, sample, startOpsApp } from '../operations/support/management';

jest.setTimeout(60_000);

const TOKEN = '/api/v1.0/Token';
const FLOOD = 12;

/**
 * One verification at a time and one sign-in waiting: a flood of sign-ins for distinct names
 * (no lockout in play) mostly finds the queue full. Those are answered 503 at once and cost no
 * guess; the metrics say what happened.
 */
describeEachDatabase('Password hashing is a bounded resource', (ctx) => {
  let ops: OpsApp;

  beforeAll(async () => {
    ops = await startOpsApp(ctx.db, {
      PASSWORD_HASH_CONCURRENCY: '1',
      PASSWORD_HASH_QUEUE_SIZE: '1',
      LOGIN_MIN_RESPONSE_MS: '50',
      LOGIN_MAX_FAILURES: '2',
      TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
    });
  });
  afterAll(async () => {
    await ops?.close();
  });

  const post = (username: string, password: string): Promise<HttpResult> =>
    http(ops.baseUrl, TOKEN, { method: 'POST', json: { username, password } });

  it('should answer 503 problem+json with Retry-After at once when the hashing queue is full, without spending a guess', async () => {
    const user = await createUser(ctx.db.db);
    const flood = await Promise.all(
      Array.from({ length: FLOOD }, () => post(user.username, 'wrong')),
    );
    const shed = flood.filter((r) => r.status === 503);
    const verified = flood.filter((r) => r.status === 401);
    // At most LOGIN_MAX_FAILURES guesses were reserved; every other one was shed or refused.
    expect(shed.length).toBeGreaterThan(0);
    expect(verified.length).toBeLessThanOrEqual(2);
    for (const res of shed) {
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(res.body).toMatchObject({ status: 503 });
    }
    // The guesses counted against the name are exactly those verified.
    const rows: Array<{ failure_count: number | string }> = await ctx.db.db.query(
      "SELECT failure_count FROM api_login_failures WHERE username_key = ? AND client_key = '127.0.0.1'",
      [user.username],
    );
    expect(Number(rows[0]?.failure_count)).toBe(verified.length);
    const m = (await http(ops.managementUrl, '/metrics')).text;
    expect(sample(m, 'pos_api_password_hash_shed_total')).toBe(shed.length);
    expect(sample(m, 'pos_api_tokens_refused_total', { reason: 'shed' })).toBe(shed.length);
  });

  it('should show locks, the queue and the refusal floor on the management port', async () => {
    const user = await createUser(ctx.db.db);
    for (let i = 0; i < 3; i++) await post(user.username, 'wrong');
    // Locks in force are read in the background: a later scrape shows what an earlier one asked.
    let m = '';
    for (let i = 0; i < 40 && sample(m, 'pos_api_login_locked', { scope: 'address' }) < 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      m = (await http(ops.managementUrl, '/metrics')).text;
    }
    expect(sample(m, 'pos_api_login_locked', { scope: 'address' })).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'pos_api_password_hash_queue', { state: 'capacity' })).toBe(2);
    expect(sample(m, 'pos_api_password_hash_queue', { state: 'running' })).toBe(0);
    expect(sample(m, 'pos_api_password_hash_verifications_total')).toBeGreaterThanOrEqual(2);
    const floored =
      sample(m, 'pos_api_login_refusal_floor_total', { outcome: 'held' }) +
      sample(m, 'pos_api_login_refusal_floor_total', { outcome: 'overran' });
    expect(floored).toBeGreaterThanOrEqual(2);
    expect(sample(m, 'pos_api_login_lockouts_total')).toBeGreaterThanOrEqual(1);
  });
});
