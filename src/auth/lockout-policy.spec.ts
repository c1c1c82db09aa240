import type { AppConfig } from '../config/app-config';
import { EVERY_ADDRESS, LockoutPolicy } from './lockout-policy';

const config = {
  LOGIN_MAX_FAILURES: 5,
  LOGIN_MAX_FAILURES_PER_NAME: 20,
  LOGIN_FAILURE_WINDOW_MINUTES: 15,
  LOGIN_LOCKOUT_MINUTES: 30,
} as AppConfig;

describe(LockoutPolicy.name, () => {
  const policy = LockoutPolicy.of(config);

  it('should take an attempt from the address budget, then from the every-address one', () => {
    expect(policy.budgets('203.0.113.7')).toEqual([
      { clientKey: '203.0.113.7', ceiling: 5 },
      { clientKey: EVERY_ADDRESS, ceiling: 20 },
    ]);
  });

  it("should take an IPv6 client's attempt from its /48's budget too, between the two, with the address's ceiling", () => {
    expect(policy.budgets('2001:db8:44:1::/64')).toEqual([
      { clientKey: '2001:db8:44:1::/64', ceiling: 5 },
      { clientKey: '2001:db8:44::/48', ceiling: 5 },
      { clientKey: EVERY_ADDRESS, ceiling: 20 },
    ]);
    // A client key as wide as the /48 already (CLIENT_IPV6_PREFIX_LENGTH=48) has no wider budget.
    expect(policy.budgets('2001:db8:44::/48')).toHaveLength(2);
  });

  it('should count the window back from now and the lock on from now, in milliseconds', () => {
    expect(policy.windowStart(1_000_000_000)).toBe(1_000_000_000 - 15 * 60_000);
    expect(policy.lockedUntil(1_000_000_000)).toBe(1_000_000_000 + 30 * 60_000);
  });
});
