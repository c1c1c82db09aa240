import { hash as argon2Hash, argon2id } from 'argon2';
import { hash as bcryptHash } from 'bcrypt';
import {
  makeAspNetV2Hash,
  makeAspNetV3Hash,
} from '../../src/auth/passwords/testing/aspnet-hash.fixture';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http, HttpResult } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(180_000);

const TOKEN = '/api/v1.0/Token';
/**
 * Far above the costliest verification here (bcrypt 10, about 60-110 ms on a busy 2-core
 * machine), so the floor, not the machine's load, decides when a refusal leaves.
 */
const FLOOR_MS = 400;
const ROUNDS = 7;
const PASSWORD = 'the-right-password';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** The body of a refusal without what differs on every request by design. */
const comparable = (res: HttpResult): unknown => ({ ...res.body, requestId: undefined });

describeEachDatabase('Every refusal of the token route takes the same time', (ctx) => {
  let api: TestApp;
  const usernames: Record<string, string> = {};

  beforeAll(async () => {
    const hashes: Record<string, string> = {
      'bcrypt cost 10': await bcryptHash(PASSWORD, 10),
      'argon2id at OWASP parameters': await argon2Hash(PASSWORD, {
        type: argon2id,
        memoryCost: 19_456,
        timeCost: 2,
        parallelism: 1,
      }),
      'ASP.NET Identity v2': makeAspNetV2Hash(PASSWORD),
      'ASP.NET Identity v3 (PBKDF2-SHA512, 100,000 iterations)': makeAspNetV3Hash(PASSWORD, {
        prf: 2,
        iterations: 100_000,
      }),
      'a malformed stored hash': '$2b$10$truncated',
      'an unsupported stored hash': '$pbkdf2-sha256$29000$N2bMWe.1tq3xPxsD$MkZ3Vhj6oDCVtDIZq1J',
    };
    for (const [label, passwordHash] of Object.entries(hashes)) {
      usernames[label] = (
        await createUser(ctx.db.db, { password: PASSWORD, passwordHash })
      ).username;
    }
    usernames['a disabled user'] = (
      await createUser(ctx.db.db, { password: PASSWORD, enabled: false })
    ).username;
    usernames['an unknown user'] = 'nobody-has-this-name';
    api = await startTestApp(ctx.db, {
      LOGIN_MIN_RESPONSE_MS: String(FLOOR_MS),
      LOGIN_MAX_FAILURES: '1000',
      LOGIN_MAX_FAILURES_PER_NAME: '1000',
      TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('should refuse an unknown user, a disabled user, users of every hash format and broken hashes after the same floor (largest median at most 1.5x the smallest), with the same body', async () => {
    const times: Record<string, number[]> = {};
    const bodies = new Set<string>();
    // Round-robin, one request at a time: every case sees the same machine load.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, username] of Object.entries(usernames)) {
        const password = label === 'a disabled user' ? PASSWORD : 'a-wrong-password';
        const started = performance.now();
        const res = await http(api.baseUrl, TOKEN, {
          method: 'POST',
          json: { username, password },
        });
        (times[label] ??= []).push(performance.now() - started);
        expect([label, res.status]).toEqual([label, 401]);
        bodies.add(JSON.stringify(comparable(res)));
      }
    }
    const medians = Object.entries(times).map(([label, ms]) => [label, median(ms)] as const);
    const fastest = Math.min(...medians.map(([, ms]) => ms));
    const slowest = Math.max(...medians.map(([, ms]) => ms));
    expect(fastest).toBeGreaterThanOrEqual(FLOOR_MS - 5);
    expect(slowest / fastest).toBeLessThanOrEqual(1.5);
    expect(bodies.size).toBe(1);
  });
});
