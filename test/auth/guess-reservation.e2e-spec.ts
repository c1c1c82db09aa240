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

  it('should not refuse a user whose sign-ins succeed while others of the same name are in flight (a success resetting the counts is not a refusal)', async () => {
    // Budgets above the burst, as a deployment whose integrator signs in on several connections:
    // every success resets the name's counts while the others are between the steps of their
    // reservation, which must never turn a right password into a 429.
    const roomy = await startTestApp(ctx.db, {
      ...ENV,
      LOGIN_MAX_FAILURES: '1000',
      LOGIN_MAX_FAILURES_PER_NAME: '1000',
    });
    try {
      const user = await createUser(ctx.db.db);
      const signInsOf = async (): Promise<number[]> => {
        const statuses: number[] = [];
        for (let i = 0; i < 25; i++) {
          const r = await http(roomy.baseUrl, TOKEN, {
            method: 'POST',
            json: { username: user.username, password: user.password },
          });
          statuses.push(r.status);
        }
        return statuses;
      };
      const statuses = (await Promise.all(Array.from({ length: 8 }, signInsOf))).flat();
      expect(statuses).toHaveLength(200);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
    } finally {
      await roomy.close();
    }
  });
});
