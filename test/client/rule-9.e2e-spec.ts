import {
  AuthenticationError,
  ForbiddenError,
  RateLimitError,
} from '../../packages/client/src/index';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { clientOn, CURSOR_SECRET, startRotatedInstance } from './support/client-app';
import { FakeClock, Wire } from './support/wire';

const MINUTE = 60_000;
jest.setTimeout(60_000);

describeEachDatabase('Client: authentication rule 9 of the contract (issue 15)', (ctx) => {
  let app: TestApp;
  /** The same database, another signing key: every token of `app` is unknown to it. */
  let rotated: { baseUrl: string; close(): Promise<void> };
  let user: { username: string; password: string };

  beforeAll(async () => {
    const shop = await createShop(ctx.db.db);
    user = await createUser(ctx.db.db, { shops: [shop] });
    const env = { CURSOR_SECRET, TOKEN_RATE_LIMIT_PER_MINUTE: '1000' };
    app = await startTestApp(ctx.db, env);
    rotated = await startRotatedInstance(ctx.db, env);
  });
  afterAll(async () => {
    await app?.close();
    await rotated?.close();
  });

  it('should request one token for many calls, not a token per call', async () => {
    const wire = new Wire(app.baseUrl);
    const client = clientOn(wire, user);
    for (let call = 0; call < 5; call++) await client.shops.list();
    expect(wire.tokenRequests).toBe(1);
    const sentWith = new Set(wire.dataRequests().map((r) => r.authorization));
    expect([...sentWith]).toEqual([`Bearer ${wire.issued[0]}`]);
  });

  it('should share one token request among 20 concurrent calls (single flight)', async () => {
    const wire = new Wire(app.baseUrl);
    const client = clientOn(wire, user);
    await Promise.all(Array.from({ length: 20 }, () => client.shops.list()));
    expect(wire.tokenRequests).toBe(1);
    expect(wire.dataRequests().map((r) => r.status)).toEqual(Array(20).fill(200));
  });

  it('should renew the token 5 minutes before its expiration, not earlier, and use the new one (fake clock)', async () => {
    const clock = new FakeClock();
    const wire = new Wire(app.baseUrl);
    const client = clientOn(wire, user, { now: clock.now });
    const expiration = (await client.tokenExpiration()).getTime();
    expect(wire.tokenRequests).toBe(1);

    clock.set(expiration - 5 * MINUTE - 1000);
    await client.shops.list();
    expect(wire.tokenRequests).toBe(1);

    clock.set(expiration - 5 * MINUTE + 1000);
    await client.shops.list();
    expect(wire.tokenRequests).toBe(2);
    expect(wire.issued[1]).not.toBe(wire.issued[0]);
    expect(wire.dataRequests().at(-1)?.authorization).toBe(`Bearer ${wire.issued[1]}`);
  });

  it('should take the renewal margin from renewBeforeMs, and never use a token past its expiration', async () => {
    const clock = new FakeClock();
    const wire = new Wire(app.baseUrl);
    const early = clientOn(wire, user, { now: clock.now, renewBeforeMs: 30 * MINUTE });
    const expiration = (await early.tokenExpiration()).getTime();
    clock.set(expiration - 31 * MINUTE);
    await early.shops.list();
    expect(wire.tokenRequests).toBe(1);
    clock.set(expiration - 29 * MINUTE);
    await early.shops.list();
    expect(wire.tokenRequests).toBe(2);

    const lateWire = new Wire(app.baseUrl);
    const late = clientOn(lateWire, user, { now: clock.now, renewBeforeMs: 0 });
    clock.set(Date.now());
    const lateExpiration = (await late.tokenExpiration()).getTime();
    clock.set(lateExpiration - 1);
    await late.shops.list();
    expect(lateWire.tokenRequests).toBe(1);
    clock.set(lateExpiration);
    await late.shops.list();
    expect(lateWire.tokenRequests).toBe(2);
  });

  it('should get one fresh token and retry once after a 401 (token revoked mid-run by a key rotation), then go on', async () => {
    const wire = new Wire(app.baseUrl);
    const client = clientOn(wire, user);
    await client.shops.list();
    wire.pointAt(rotated.baseUrl);
    const shops = await client.shops.list();
    expect(shops).toHaveLength(1);
    expect(wire.tokenRequests).toBe(2);
    expect(wire.dataRequests().map((r) => r.status)).toEqual([200, 401, 200]);
  });

  it('should stop with AuthenticationError when the fresh token is refused too: exactly two token requests, no third', async () => {
    const wire = new Wire(app.baseUrl);
    const client = clientOn(wire, user);
    await client.shops.list();
    // Revoked mid-run: the data routes now verify with a key the token route does not sign with.
    wire.dataTarget = rotated.baseUrl;
    const error = await client.shops.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as Error).message).toMatch(/fresh token was refused too: stopped/);
    expect(wire.tokenRequests).toBe(2);
    const afterRevocation = wire.dataRequests().slice(1);
    expect(afterRevocation.map((r) => r.status)).toEqual([401, 401]);
    expect(afterRevocation[1].authorization).toBe(`Bearer ${wire.issued[1]}`);
  });

  it('should share one fresh token among 20 concurrent calls refused 401', async () => {
    const wire = new Wire(app.baseUrl);
    const client = clientOn(wire, user);
    await client.shops.list();
    wire.pointAt(rotated.baseUrl);
    await Promise.all(Array.from({ length: 20 }, () => client.shops.list()));
    expect(wire.tokenRequests).toBe(2);
  });

  it('should throw AuthenticationError on a 401 from the token route after one request, never retrying it', async () => {
    const wire = new Wire(app.baseUrl);
    const client = clientOn(wire, { username: user.username, password: 'wrong-password-1' });
    const error = await client.shops.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(/not retried/);
    expect(wire.tokenRequests).toBe(1);
    expect(wire.dataRequests()).toEqual([]);
  });

  it('should surface Retry-After from a 429 of the token route (locked account) without retrying', async () => {
    const locked = await createUser(ctx.db.db);
    const wire = new Wire(app.baseUrl);
    const wrong = clientOn(wire, { username: locked.username, password: 'wrong-password-2' });
    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(wrong.shops.list()).rejects.toBeInstanceOf(AuthenticationError);
    }
    const right = clientOn(wire, locked);
    const error = await right.shops.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBeGreaterThan(0);
    expect((error as Error).message).toMatch(/answered 429.*Retry after \d+ s\./);
    expect(wire.tokenRequests).toBe(6);
  });

  it('should throw ForbiddenError for a user without the role ApiUser', async () => {
    const manager = await createUser(ctx.db.db, { roles: [] });
    const wire = new Wire(app.baseUrl);
    await expect(clientOn(wire, manager).shops.list()).rejects.toBeInstanceOf(ForbiddenError);
    expect(wire.tokenRequests).toBe(1);
  });

  it('should never put the token in an error message, a log line or a URL', async () => {
    const wire = new Wire(app.baseUrl);
    const log: string[] = [];
    const client = clientOn(wire, user, {}, log);
    await client.sales.list({ limit: 1 }).toArray();
    wire.dataTarget = rotated.baseUrl;
    const error = await client.sales
      .list()
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const texts = [
      (error as Error).message,
      String(error),
      JSON.stringify(error),
      (error as Error).stack ?? '',
      ...log,
      ...wire.sent.map((r) => r.url),
    ];
    expect(log.length).toBeGreaterThan(0);
    expect(wire.issued).toHaveLength(2);
    for (const token of wire.issued) {
      for (const text of texts) expect(text).not.toContain(token);
    }
  });
});
