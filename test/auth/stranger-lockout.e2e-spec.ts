import { runBackofficeAdmin } from '../../tools/backoffice-admin/backoffice-admin';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = '/api/v1.0/Token';
const INTEGRATION_ADDRESS = '198.51.100.7';

/**
 * The integration user signs in from its own address. A stranger's failures spend the budget of
 * the name from the stranger's address (LOGIN_MAX_FAILURES, 3 here), and only many addresses
 * together reach the name-wide budget (LOGIN_MAX_FAILURES_PER_NAME, 6 here).
 */
describeEachDatabase('A stranger cannot lock the integration user out', (ctx) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await startTestApp(ctx.db, {
      TRUST_PROXY: '1',
      LOGIN_MAX_FAILURES: '3',
      LOGIN_MAX_FAILURES_PER_NAME: '6',
      LOGIN_MIN_RESPONSE_MS: '0',
      TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const post = (from: string, username: string, password: string) =>
    http(api.baseUrl, TOKEN, {
      method: 'POST',
      headers: { 'X-Forwarded-For': from },
      json: { username, password },
    });

  const failFrom = async (from: string, username: string, times: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < times; i++) statuses.push((await post(from, username, 'guess')).status);
    return statuses;
  };

  it("should keep the integration user's own address signing in while one stranger is locked out of the name", async () => {
    const user = await createUser(ctx.db.db);
    expect(await failFrom('203.0.113.9', user.username, 5)).toEqual([401, 401, 401, 429, 429]);
    expect((await post(INTEGRATION_ADDRESS, user.username, user.password)).status).toBe(200);
    // The stranger's own lock holds (a success elsewhere does not lift it).
    expect((await post('203.0.113.9', user.username, user.password)).status).toBe(429);
  });

  it('should lock the name for every address once many addresses together spend LOGIN_MAX_FAILURES_PER_NAME, and unlock clears it', async () => {
    const user = await createUser(ctx.db.db);
    expect(await failFrom('203.0.113.21', user.username, 3)).toEqual([401, 401, 401]);
    expect(await failFrom('203.0.113.22', user.username, 3)).toEqual([401, 401, 401]);
    expect(await failFrom('203.0.113.23', user.username, 1)).toEqual([429]);
    const locked = await post(INTEGRATION_ADDRESS, user.username, user.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    const code = await runBackofficeAdmin(
      ['unlock', user.username],
      { out: () => undefined, err: () => undefined, readStdin: async () => '' },
      {
        APP_ENV: 'development', // an unset APP_ENV is production, where unlock wants --yes-production
        DATA_DIR: ctx.db.dataDir,
        ...(ctx.db.databaseUrl ? { DATABASE_URL: ctx.db.databaseUrl } : {}),
      },
    );
    expect(code).toBe(0);
    expect((await post(INTEGRATION_ADDRESS, user.username, user.password)).status).toBe(200);
  });
});
