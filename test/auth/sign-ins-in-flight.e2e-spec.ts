import { DataSource } from 'typeorm';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http, HttpResult } from '../support/http';
import { OpsApp, sample, startOpsApp } from '../operations/support/management';
import { gateQueries } from '../operations/support/query-gate';

jest.setTimeout(60_000);

const TOKEN = '/api/v1.0/Token';
const USER_LOOKUP = /FROM bo_users WHERE username/;

/**
 * More than LOGIN_MAX_FAILURES sign-ins of one name from one address at once: the guesses in
 * flight spend the budget (decision 35), so the sixth is refused 429 even with the right password.
 * The refusal says what happened (sign-ins in progress, not failed attempts) and is counted as
 * reason="in_flight", never as a lock.
 */
describeEachDatabase('Sign-ins of one name in flight at once', (ctx) => {
  let ops: OpsApp;

  beforeAll(async () => {
    ops = await startOpsApp(ctx.db, {
      TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
      LOGIN_MIN_RESPONSE_MS: '0',
    });
  });
  afterAll(async () => {
    await ops?.close();
  });

  const post = (username: string, password: string): Promise<HttpResult> =>
    http(ops.baseUrl, TOKEN, { method: 'POST', json: { username, password } });

  it('should answer the sixth simultaneous right sign-in 429 "in progress" with Retry-After: 1, count it as in_flight, and let the five finish 200', async () => {
    const user = await createUser(ctx.db.db);
    const gate = gateQueries(ops.app, USER_LOOKUP);
    const lookups = () =>
      (ops.app.get(DataSource).query as jest.Mock).mock.calls.filter(([sql]) =>
        USER_LOOKUP.test(String(sql)),
      ).length;
    const five = Array.from({ length: 5 }, () => post(user.username, user.password));
    for (let i = 0; i < 200 && lookups() < 5; i++) await new Promise((r) => setTimeout(r, 25));
    expect(lookups()).toBe(5);

    const sixth = await post(user.username, user.password);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(sixth.headers.get('retry-after')).toBe('1');
    expect(sixth.body.detail).toMatch(/sign-ins of this username are in progress/);
    expect(sixth.body.detail).not.toMatch(/fail/i);

    gate.open();
    expect((await Promise.all(five)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // The name was never locked: the next sign-in goes through.
    expect((await post(user.username, user.password)).status).toBe(200);

    const m = (await http(ops.managementUrl, '/metrics')).text;
    expect(sample(m, 'pos_api_tokens_refused_total', { reason: 'in_flight' })).toBe(1);
    expect(sample(m, 'pos_api_tokens_refused_total', { reason: 'locked' })).toBe(0);
    expect(sample(m, 'pos_api_login_lockouts_total')).toBe(0);
  });
});
