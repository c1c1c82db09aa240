import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';

/**
 * Consecutive login failures per key (loginFailureKey: the user the name finds, else the folded
 * name), in the service's own table `api_login_failures`, so every instance sees the same count.
 * Each step is one atomic statement: concurrent failures can never be lost and a burst of
 * parallel guesses cannot slip past the limit.
 */
@Injectable()
export class LoginFailuresRepository {
  private readonly isMysql: boolean;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
  ) {
    this.isMysql = db.options.type === 'mysql';
  }

  /** Milliseconds the key stays locked, or 0. */
  async lockedForMs(key: string, now = Date.now()): Promise<number> {
    const rows: Array<{ locked_until_ms: string | number | null }> = await this.db.query(
      'SELECT locked_until_ms FROM api_login_failures WHERE username_key = ?',
      [key],
    );
    const until = rows[0]?.locked_until_ms == null ? 0 : Number(rows[0].locked_until_ms);
    return Math.max(0, until - now);
  }

  /**
   * Counts one failure; returns true when this failure is the one that locked the key (only the
   * statement that sets the lock time changes a row, so racing failures get true once).
   */
  async recordFailure(key: string, now = Date.now()): Promise<boolean> {
    const windowStart = now - this.config.LOGIN_FAILURE_WINDOW_MINUTES * 60_000;
    // 1. A stale window, or a lock that has run out, starts the count again.
    await this.db.query(
      `UPDATE api_login_failures SET failure_count = 0, first_failure_at_ms = ?, locked_until_ms = NULL
        WHERE username_key = ?
          AND ((locked_until_ms IS NULL AND first_failure_at_ms < ?) OR locked_until_ms <= ?)`,
      [now, key, windowStart, now],
    );
    // 2. Atomic increment.
    await this.db.query(
      this.isMysql
        ? `INSERT INTO api_login_failures (username_key, failure_count, first_failure_at_ms, locked_until_ms)
             VALUES (?, 1, ?, NULL) ON DUPLICATE KEY UPDATE failure_count = failure_count + 1`
        : `INSERT INTO api_login_failures (username_key, failure_count, first_failure_at_ms, locked_until_ms)
             VALUES (?, 1, ?, NULL) ON CONFLICT (username_key) DO UPDATE SET failure_count = failure_count + 1`,
      [key, now],
    );
    // 3. Lock once the limit is reached (only the failure that reaches it sets the time).
    const lockedUntil = now + this.config.LOGIN_LOCKOUT_MINUTES * 60_000;
    const runner = this.db.createQueryRunner();
    try {
      const locked = await runner.query(
        `UPDATE api_login_failures SET locked_until_ms = ?
          WHERE username_key = ? AND failure_count >= ? AND locked_until_ms IS NULL`,
        [lockedUntil, key, this.config.LOGIN_MAX_FAILURES],
        true,
      );
      return (locked.affected ?? 0) > 0;
    } finally {
      await runner.release();
    }
  }

  async reset(key: string): Promise<void> {
    await this.db.query('DELETE FROM api_login_failures WHERE username_key = ?', [key]);
  }
}
