import type { AppConfig } from '../config/app-config';
import { widerNetworkKey } from './client-key';

/**
 * The `client_key` of the row that counts a name's sign-in attempts from every address together;
 * any other key is one client address (client-key.ts). The admin CLI reads it too.
 */
export const EVERY_ADDRESS = '';

/**
 * Who a lock holds back: a name from one address (its row's client_key is the address), or a
 * name from every address (EVERY_ADDRESS). The metrics' `scope` label.
 */
export const LOCK_SCOPES = ['address', 'name'] as const;
export type LockScope = (typeof LOCK_SCOPES)[number];

/** One budget of attempts: the row that counts them and how many it allows per window. */
export interface Budget {
  clientKey: string;
  ceiling: number;
}

/**
 * The sign-in lockout policy, in one place: how many failed attempts of a name one address may
 * make (LOGIN_MAX_FAILURES) and all addresses together (LOGIN_MAX_FAILURES_PER_NAME) within the
 * window (LOGIN_FAILURE_WINDOW_MINUTES), and how long the lock lasts that their last one sets
 * (LOGIN_LOCKOUT_MINUTES). The failures repository applies it with atomic SQL
 * (login-failures.repository.ts), the metrics count its locks by scope, the admin CLI shows and
 * clears them. docs/auth.md says the same in words.
 */
export class LockoutPolicy {
  constructor(
    readonly maxFailuresPerAddress: number,
    readonly maxFailuresPerName: number,
    readonly windowMs: number,
    readonly lockMs: number,
  ) {}

  static of(config: AppConfig): LockoutPolicy {
    return new LockoutPolicy(
      config.LOGIN_MAX_FAILURES,
      config.LOGIN_MAX_FAILURES_PER_NAME,
      config.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
      config.LOGIN_LOCKOUT_MINUTES * 60_000,
    );
  }

  /**
   * The budgets an attempt of a name from `client` is taken from, narrowest first: the address's;
   * for an IPv6 client, its /48's too (widerNetworkKey), with the same ceiling, so the /64s of one
   * allocation share one address's budget and one allocation can never spend the name's
   * (LOGIN_MAX_FAILURES_PER_NAME exceeds LOGIN_MAX_FAILURES); last, every address's.
   */
  budgets(client: string): Budget[] {
    const network = widerNetworkKey(client);
    return [
      { clientKey: client, ceiling: this.maxFailuresPerAddress },
      ...(network === null ? [] : [{ clientKey: network, ceiling: this.maxFailuresPerAddress }]),
      { clientKey: EVERY_ADDRESS, ceiling: this.maxFailuresPerName },
    ];
  }

  /** Counts whose first failure is before this (and that are not locked) start again. */
  windowStart(now: number): number {
    return now - this.windowMs;
  }

  /** The end of a lock set now. */
  lockedUntil(now: number): number {
    return now + this.lockMs;
  }
}
