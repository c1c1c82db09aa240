import { LoginFailuresRepository } from '../../src/auth/login-failures.repository';
import { describeEachDatabase } from '../support/describe-databases';
import { testConfig } from '../support/test-app';

describeEachDatabase('LoginFailuresRepository on the real database', (ctx) => {
  let failures: LoginFailuresRepository;

  beforeAll(() => {
    const config = testConfig(ctx.db, { LOGIN_MAX_FAILURES: '3', LOGIN_LOCKOUT_MINUTES: '15' });
    failures = new LoginFailuresRepository(ctx.db.db, config);
  });

  it('should say that a failure locked the key only for the failure that reached the limit', async () => {
    const now = Date.now();
    const locked = [];
    for (let i = 0; i < 5; i++) locked.push(await failures.recordFailure('name:serial', now + i));
    expect(locked).toEqual([false, false, true, false, false]);
    expect(await failures.lockedForMs('name:serial', now + 5)).toBeGreaterThan(14 * 60_000);
  });

  it('should say it once for a burst of parallel failures', async () => {
    const now = Date.now();
    const locked = await Promise.all(
      Array.from({ length: 8 }, () => failures.recordFailure('name:burst', now)),
    );
    expect(locked.filter(Boolean)).toHaveLength(1);
    expect(await failures.lockedForMs('name:burst', now)).toBeGreaterThan(0);
  });

  it('should start again after a reset', async () => {
    const now = Date.now();
    for (let i = 0; i < 3; i++) await failures.recordFailure('name:reset', now);
    await failures.reset('name:reset');
    expect(await failures.lockedForMs('name:reset', now)).toBe(0);
    expect(await failures.recordFailure('name:reset', now)).toBe(false);
  });
});
