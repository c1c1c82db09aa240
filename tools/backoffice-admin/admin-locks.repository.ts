import type { DataSource, EntityManager } from 'typeorm';
import { EVERY_ADDRESS } from '../../src/auth/lockout-policy';

type Db = DataSource | EntityManager;

export interface LockState {
  failures: number;
  firstFailureAt: string | null;
  lockedUntil: string | null;
}

const iso = (ms: number | string | null): string | null =>
  ms === null ? null : new Date(Number(ms)).toISOString();

/** The service's own sign-in failure bookkeeping (api_login_failures), which the admin clears. */
export class AdminLocksRepository {
  constructor(private readonly db: Db) {}

  /**
   * The service's failure bookkeeping of a name (api_login_failures compares names as the
   * back-office does, so any spelling finds it): the count of every address together and the
   * latest lock, of every address or of one; undefined when there is none.
   */
  async lockState(username: string): Promise<LockState | undefined> {
    const rows: Array<{
      client_key: string;
      failure_count: number | string;
      first_failure_at_ms: number | string;
      locked_until_ms: number | string | null;
    }> = await this.db.query(
      // A success leaves its rows at zero: only a count or a lock is bookkeeping to show.
      `SELECT client_key, failure_count, first_failure_at_ms, locked_until_ms FROM api_login_failures
        WHERE username_key = ? AND (failure_count > 0 OR locked_until_ms IS NOT NULL)`,
      [username],
    );
    if (rows.length === 0) return undefined;
    const everyAddress = rows.find((r) => r.client_key === EVERY_ADDRESS) ?? rows[0];
    const lockedUntil = Math.max(0, ...rows.map((r) => Number(r.locked_until_ms ?? 0)));
    return {
      failures: Number(everyAddress.failure_count),
      firstFailureAt: iso(everyAddress.first_failure_at_ms),
      lockedUntil: lockedUntil > 0 ? iso(lockedUntil) : null,
    };
  }

  /**
   * Clears the failure counts and locks of the typed name, from every address (any spelling the
   * back-office finds the same user by clears the same rows); returns false when there was none.
   */
  async unlock(username: string): Promise<boolean> {
    if (!(await this.lockState(username))) return false;
    await this.db.query('DELETE FROM api_login_failures WHERE username_key = ?', [username]);
    return true;
  }
}
