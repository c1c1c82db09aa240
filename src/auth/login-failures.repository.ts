import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { type Budget, EVERY_ADDRESS, type LockScope, LockoutPolicy } from './lockout-policy';
import { SignInConnections } from './sign-in-connections';
/** Retry-After while the last reserved guesses are still being verified (no lock time yet). */
const IN_FLIGHT_RETRY_MS = 1000;
/** One reservation in this many also deletes the rows whose window and lock have run out. */
const PURGE_EVERY = 1000;

const DEADLOCK_RETRIES = 5;

const placeholders = (values: unknown[]): string => values.map(() => '?').join(', ');

const isDeadlock = (error: unknown): boolean =>
  (error as { driverError?: { errno?: number } } | null)?.driverError?.errno === 1213;

/**
 * Why a reservation was refused: `locked`, a lock is in force (set by failures); `in_flight`, no
 * lock but the budget is spent by attempts still being verified (the last of them decides: a
 * failure locks, a success resets), as when more than LOGIN_MAX_FAILURES sign-ins of one name
 * from one address run at once, even with the right password.
 */
export type ReservationRefusal = 'locked' | 'in_flight';

export type Reservation =
  { reserved: true } | { reserved: false; refusal: ReservationRefusal; retryAfterMs: number };

interface Row {
  client_key: string;
  failure_count: number | string;
  locked_until_ms: number | string | null;
}

/**
 * Sign-in attempts per name (as typed: the table's collation is bo_users.username's, so the
 * database folds spellings as the back-office lookup does, whether a user has the name or not)
 * and per client address, in the service's own table `api_login_failures`, shared by every
 * instance. An attempt is reserved before its password is verified, by one conditional UPDATE
 * per row that increments only below the ceiling and when not locked: no burst, on any number of
 * connections or instances, verifies more than LOGIN_MAX_FAILURES guesses of one name from one
 * address or one IPv6 /48, or LOGIN_MAX_FAILURES_PER_NAME from all addresses, per lock period. The limits, the
 * window, the lock length and the every-address key are the LockoutPolicy's (lockout-policy.ts);
 * this file holds the SQL that applies them atomically.
 */
@Injectable()
export class LoginFailuresRepository {
  private readonly isMysql: boolean;
  private readonly policy: LockoutPolicy;
  private readonly connections: SignInConnections;
  private reservations = 0;

  /**
   * `connections`: the token route's share of the pool (the module's, decision 29.11); a
   * repository made alone (the specs of the SQL's atomicity) may hold the whole pool.
   */
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    config: AppConfig,
    connections?: SignInConnections,
  ) {
    this.isMysql = db.options.type === 'mysql';
    this.policy = LockoutPolicy.of(config);
    this.connections = connections ?? new SignInConnections(config.DATABASE_POOL_SIZE);
  }

  /**
   * Takes one attempt of `name` from `client` out of every budget of the policy (the address's,
   * an IPv6 client's /48's, every address's), or says how long to wait. When the name's rows
   * exist (every sign-in after the first of a window), that is one statement per budget, each
   * restarting its own count if its window or lock has run out (decision 29.16).
   */
  async reserve(name: string, client: string, now = Date.now()): Promise<Reservation> {
    // Stryker disable next-line UpdateOperator: counting down meets a multiple of PURGE_EVERY on the same reservations as counting up
    if (++this.reservations % PURGE_EVERY === 0) await this.purge(now);
    const budgets = this.policy.budgets(client);
    const keys = budgets.map((budget) => budget.clientKey);
    for (let attempt = 0; ; attempt++) {
      const taken = await this.takeAll(name, budgets, now);
      if (taken) return { reserved: true };
      if (taken === null && attempt === 0) {
        // No row to take from yet (the name's first attempt from this address, or the purge
        // deleted it): make the missing rows and take again.
        await this.ensureRows(name, keys, now);
        continue;
      }
      const rows = await this.rowsOf(name, keys);
      // The purge deleted a row whose window had run out between the steps: reserve again.
      if (rows.length < keys.length && attempt < 2) {
        await this.ensureRows(name, keys, now);
        continue;
      }
      const until = Math.max(0, ...rows.map((r) => Number(r.locked_until_ms ?? 0)));
      // A lock ending at or before now is restarted by its row's take at this same now. Only a
      // wider row's (the /48's, every address's) can still end exactly now, when a narrower budget
      // refused the attempt first and that row's take never ran: the wait is then for the
      // attempts in flight.
      return until > now
        ? { reserved: false, refusal: 'locked', retryAfterMs: until - now }
        : { reserved: false, refusal: 'in_flight', retryAfterMs: IN_FLIGHT_RETRY_MS };
    }
  }

  /**
   * A reserved attempt failed: rows whose count reached their ceiling are locked from now.
   * Returns true when this failure set a lock (only one racing failure changes each row).
   */
  async failed(name: string, client: string, now = Date.now()): Promise<boolean> {
    const until = this.policy.lockedUntil(now);
    const lock = async ({ clientKey, ceiling }: Budget): Promise<boolean> =>
      (await this.affected(
        `UPDATE api_login_failures SET locked_until_ms = ?
          WHERE username_key = ? AND client_key = ? AND failure_count >= ? AND locked_until_ms IS NULL`,
        [until, name, clientKey, ceiling],
      )) > 0;
    let locked = false;
    for (const budget of this.policy.budgets(client)) locked = (await lock(budget)) || locked;
    return locked;
  }

  /**
   * A success resets the name's count from this address and from every address. It resets the
   * rows rather than deleting them: sign-ins of the same name in flight are between the steps of
   * their reservation, and a row deleted under them made a right password answer 429.
   */
  async succeeded(name: string, client: string, now = Date.now()): Promise<void> {
    const keys = this.policy.budgets(client).map((budget) => budget.clientKey);
    await this.run(
      `UPDATE api_login_failures SET failure_count = 0, first_failure_at_ms = ?, locked_until_ms = NULL
        WHERE username_key = ? AND client_key IN (${placeholders(keys)})`,
      [now, name, ...keys],
    );
  }

  /** Locks in force now, by scope: of a name from one address, of a name from every address (metrics). */
  async locksInForce(now = Date.now()): Promise<Record<LockScope, number>> {
    const rows: Array<{ scope: LockScope; n: number | string }> = await this.run(
      `SELECT CASE WHEN client_key = ? THEN 'name' ELSE 'address' END AS scope, COUNT(*) AS n
         FROM api_login_failures WHERE locked_until_ms > ? GROUP BY scope`,
      [EVERY_ADDRESS, now],
    );
    const locks: Record<LockScope, number> = { address: 0, name: 0 };
    for (const row of rows) locks[row.scope] = Number(row.n);
    return locks;
  }

  private async ensureRows(name: string, keys: string[], now: number): Promise<void> {
    // MySQL: IGNORE only skips the existing rows (a name fits the column: the body limits it);
    // an upsert would take exclusive locks that deadlock when a burst creates the same row.
    const rows = `(username_key, client_key, failure_count, first_failure_at_ms, locked_until_ms)
        VALUES ${keys.map(() => '(?, ?, 0, ?, NULL)').join(', ')}`;
    await this.run(
      this.isMysql
        ? `INSERT IGNORE INTO api_login_failures ${rows}`
        : `INSERT INTO api_login_failures ${rows} ON CONFLICT (username_key, client_key) DO NOTHING`,
      keys.flatMap((key) => [name, key, now]),
    );
  }

  /**
   * Takes the attempt from every budget, narrowest first, or from none: a budget that refuses
   * gives back what the narrower ones took. True: taken; false: a budget refused after the first
   * took; null: the first refused (or has no row yet), so nothing was taken.
   */
  private async takeAll(name: string, budgets: Budget[], now: number): Promise<boolean | null> {
    for (const [index, budget] of budgets.entries()) {
      if (await this.take(name, budget, now)) continue;
      for (const taken of budgets.slice(0, index)) await this.giveBack(name, taken.clientKey);
      return index === 0 ? null : false;
    }
    return true;
  }

  /**
   * The reservation of one budget: one statement, atomic on both databases. A row whose window
   * has run out (no lock, its first count older than the window), or whose lock has, starts again
   * at this attempt; any other row counts it below its ceiling, when not locked. The assignments
   * read only columns assigned after them, so MySQL's left-to-right assignment and SQLite's
   * all-from-the-old-row agree.
   */
  private async take(name: string, { clientKey, ceiling }: Budget, now: number): Promise<boolean> {
    const windowStart = this.policy.windowStart(now);
    const stale = '((locked_until_ms IS NULL AND first_failure_at_ms < ?) OR locked_until_ms <= ?)';
    const changed = await this.affected(
      `UPDATE api_login_failures
          SET failure_count = CASE WHEN ${stale} THEN 1 ELSE failure_count + 1 END,
              first_failure_at_ms = CASE WHEN ${stale} THEN ? ELSE first_failure_at_ms END,
              locked_until_ms = NULL
        WHERE username_key = ? AND client_key = ?
          AND (${stale} OR (failure_count < ? AND locked_until_ms IS NULL))`,
      [windowStart, now, windowStart, now, now, name, clientKey, windowStart, now, ceiling],
    );
    return changed > 0;
  }

  private async giveBack(name: string, clientKey: string): Promise<void> {
    await this.run(
      `UPDATE api_login_failures SET failure_count = failure_count - 1
        WHERE username_key = ? AND client_key = ? AND failure_count > 0 AND locked_until_ms IS NULL`,
      [name, clientKey],
    );
  }

  private rowsOf(name: string, keys: string[]): Promise<Row[]> {
    return this.run(
      `SELECT client_key, failure_count, locked_until_ms FROM api_login_failures
        WHERE username_key = ? AND client_key IN (${placeholders(keys)})`,
      [name, ...keys],
    );
  }

  private async purge(now: number): Promise<void> {
    const windowStart = this.policy.windowStart(now);
    await this.run(
      `DELETE FROM api_login_failures
        WHERE (locked_until_ms IS NULL AND first_failure_at_ms < ?) OR locked_until_ms <= ?`,
      [windowStart, now],
    );
  }

  private async affected(sql: string, parameters: unknown[]): Promise<number> {
    const result = await this.run<{ affected?: number }>(sql, parameters, true);
    return result.affected ?? 0;
  }

  /**
   * Every statement is atomic alone; one InnoDB picks as a deadlock victim is simply run again.
   * Each runs within the token route's share of the pool, so a burst leaves the rest to reads.
   */
  private run<T>(sql: string, parameters: unknown[], structured = false): Promise<T> {
    return this.connections.run(() => this.runNow<T>(sql, parameters, structured));
  }

  private async runNow<T>(sql: string, parameters: unknown[], structured: boolean): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const runner = this.db.createQueryRunner();
      try {
        return (await (structured
          ? runner.query(sql, parameters, true)
          : runner.query(sql, parameters))) as T;
      } catch (error) {
        if (attempt >= DEADLOCK_RETRIES || !isDeadlock(error)) throw error;
      } finally {
        await runner.release();
      }
    }
  }
}
