import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http, HttpResult } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

const TOKEN = '/api/v1.0/Token';
const GUESSES = 30;
const ENV = { TOKEN_RATE_LIMIT_PER_MINUTE: '100000', LOGIN_MIN_RESPONSE_MS: '0' };

/** 29 wrong guesses and the right password, all sent at once, spread over the given instances. */
async function burst(apis: TestApp[], username: string, password: string): Promise<HttpResult[]> {
  const passwords = Array.from({ length: GUESSES }, (_, i) => (i === 17 ? password : `wrong-${i}`));
  return Promise.all(
    passwords.map((guess, i) =>
      http(apis[i % apis.length].baseUrl, TOKEN, {
        method: 'POST',
        json: { username, password: guess },
      }),
    ),
  );
}

/** Verified = answered 401 or 200; every other answer must be 429 with Retry-After. */
function expectAtMostFiveVerified(results: HttpResult[]): void {
  const verified = results.filter((r) => r.status === 401 || r.status === 200);
  const refused = results.filter((r) => r.status === 429);
  expect(verified.length + refused.length).toBe(GUESSES);
  expect(verified.length).toBeGreaterThan(0);
  expect(verified.length).toBeLessThanOrEqual(5);
  for (const r of refused) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describeEachDatabase('Guesses are reserved before they are verified', (ctx) => {
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    one = await startTestApp(ctx.db, ENV);
    two = await startTestApp(ctx.db, ENV);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it('should verify at most LOGIN_MAX_FAILURES of 30 concurrent guesses (29 wrong, 1 right) and answer the rest 429 with Retry-After', async () => {
    const user = await createUser(ctx.db.db);
    expectAtMostFiveVerified(await burst([one], user.username, user.password));
  });

  it('should verify at most LOGIN_MAX_FAILURES of 30 concurrent guesses spread over two instances sharing the database', async () => {
    const user = await createUser(ctx.db.db);
    expectAtMostFiveVerified(await burst([one, two], user.username, user.password));
  });

  it('should verify at most LOGIN_MAX_FAILURES of 30 concurrent guesses for a name no user has', async () => {
    expectAtMostFiveVerified(await burst([one, two], 'nobody-here', 'whatever'));
  });
});
