import { LoginFailuresRepository } from '../../src/auth/login-failures.repository';
import { describeEachDatabase } from '../support/describe-databases';
import { testConfig } from '../support/test-app';

describeEachDatabase('LoginFailuresRepository on the real database', (ctx) => {
  let failures: LoginFailuresRepository;

  beforeAll(() => {
    const config = testConfig(ctx.db, {
      LOGIN_MAX_FAILURES: '3',
      LOGIN_MAX_FAILURES_PER_NAME: '5',
      LOGIN_LOCKOUT_MINUTES: '15',
    });
    failures = new LoginFailuresRepository(ctx.db.db, config);
  });

  const reservedCount = async (name: string, client: string, tries: number, now = Date.now()) => {
    const outcomes = await Promise.all(
      Array.from({ length: tries }, () => failures.reserve(name, client, now)),
    );
    return outcomes.filter((o) => o.reserved).length;
  };

  it('should reserve at most LOGIN_MAX_FAILURES attempts of a burst from one address, before any is verified', async () => {
    expect(await reservedCount('burst', '10.0.0.1', 12)).toBe(3);
  });

  it('should reserve at most LOGIN_MAX_FAILURES_PER_NAME attempts from every address together', async () => {
    const now = Date.now();
    const counts = await Promise.all(
      ['10.0.1.1', '10.0.1.2', '10.0.1.3'].map((ip) => reservedCount('spread', ip, 3, now)),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('should say that a failure locked the name only for the failure that reached the limit, and refuse with the lock time', async () => {
    const now = Date.now();
    const locked = [];
    for (let i = 0; i < 3; i++) {
      expect((await failures.reserve('serial', '10.0.2.1', now)).reserved).toBe(true);
      locked.push(await failures.failed('serial', '10.0.2.1', now));
    }
    expect(locked).toEqual([false, false, true]);
    const refused = await failures.reserve('serial', '10.0.2.1', now + 1000);
    expect(refused).toEqual({
      reserved: false,
      refusal: 'locked',
      retryAfterMs: 15 * 60_000 - 1000,
    });
  });

  it('should refuse an attempt beyond the budget while the others are still being verified as in flight, not locked, with a retry in a second', async () => {
    const now = Date.now();
    expect(await reservedCount('racing', '10.0.5.1', 3, now)).toBe(3);
    expect(await failures.reserve('racing', '10.0.5.1', now)).toEqual({
      reserved: false,
      refusal: 'in_flight',
      retryAfterMs: 1000,
    });
    // Their last failure sets the lock: from then on the refusal is a lock.
    await failures.failed('racing', '10.0.5.1', now);
    expect(await failures.reserve('racing', '10.0.5.1', now)).toMatchObject({
      reserved: false,
      refusal: 'locked',
    });
  });

  it('should start again after a success, and after the lock has run out', async () => {
    const now = Date.now();
    for (let i = 0; i < 3; i++) await failures.reserve('reset', '10.0.3.1', now);
    await failures.succeeded('reset', '10.0.3.1');
    expect(await reservedCount('reset', '10.0.3.1', 3, now)).toBe(3);
    await failures.failed('reset', '10.0.3.1', now);
    expect((await failures.reserve('reset', '10.0.3.1', now)).reserved).toBe(false);
    expect((await failures.reserve('reset', '10.0.3.1', now + 15 * 60_000)).reserved).toBe(true);
  });

  it("should not spend an address's budget on attempts the name's own lock refuses", async () => {
    const now = Date.now();
    for (const ip of ['10.0.4.1', '10.0.4.2']) await reservedCount('shared', ip, 3, now);
    // 5 reserved in all: the name is at its ceiling; 10.0.4.3 is refused without spending its 3.
    expect(await reservedCount('shared', '10.0.4.3', 4, now)).toBe(0);
    await failures.succeeded('shared', '10.0.4.1');
    expect(await reservedCount('shared', '10.0.4.3', 4, now)).toBe(3);
  });
});
