import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { CallerClaims } from '../common/caller-claims';
import { serviceUnavailable } from '../common/errors/problem';
import { AppConfig } from '../config/app-config';
import { TOKEN_LIFETIME_SECONDS } from '../config/limits';

interface Row {
  user_id: string | null;
  jti: string | null;
  issued_before_s: number | string | null;
}

/** MySQL's "SELECT command denied to user … for table" (ER_TABLEACCESS_DENIED_ERROR). */
const TABLE_ACCESS_DENIED = 1142;

/** Why the list cannot be read, for the log: the missing grant by name when that is the cause. */
function readFailure(error: unknown): string {
  const failed = error as { driverError?: { errno?: number }; errno?: number } | null;
  const errno = failed?.driverError?.errno ?? failed?.errno;
  if (errno === TABLE_ACCESS_DENIED) {
    return 'the database account lacks SELECT on api_token_revocations: run sql/least-privilege.sql (GRANT SELECT ON api_token_revocations)';
  }
  return (error as Error).message;
}

/** The text of the 401 of a revoked token (the strategy's and the re-check's). */
export const REVOKED = 'it was revoked; sign in again for a new one';

/**
 * The emergency revocations of `npm run backoffice -- revoke-tokens` (api_token_revocations),
 * held in memory and re-read every TOKEN_REVOCATION_REFRESH_MS: checking a token costs no
 * database round trip, and a revocation reaches every instance within that time. Only rows that
 * can still concern an unexpired token are read. Disable and revoke-shop never write here
 * (contract rules 5 and 6).
 *
 * It fails closed (issue 44, 3): while the list was never read, or its last good read is older
 * than `maxAgeMs` (three refresh periods, at least 15 s), the list is not current, every
 * authenticated route answers 503 (`assertCurrent`) and readiness says so, since a token revoked
 * meanwhile would pass. A failed read is logged as an error once per outage, naming the grant
 * when the account lacks it.
 */
/**
 * The iat of each admitted caller, for the re-check of an answer that waited (`stillAdmits`).
 * One per process, not per instance: passport keeps one strategy per name in a process, so with
 * two apps in one process (the specs) the caller may be admitted by the other app's instance.
 */
const ISSUED_AT = new WeakMap<CallerClaims, number>();

@Injectable()
export class TokenRevocations implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('TokenRevocations');
  private jtis = new Set<string>();
  private usersBefore = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  /** Date.now() of the last read that succeeded; undefined: never read. */
  private readAt?: number;
  /** Why the last read failed; undefined after a read that succeeded. */
  private failure?: string;
  readonly maxAgeMs: number;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
  ) {
    this.maxAgeMs = Math.max(3 * config.TOKEN_REVOCATION_REFRESH_MS, 15_000);
  }

  async onModuleInit(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.config.TOKEN_REVOCATION_REFRESH_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Why the list is not current now, or null when it is (readiness, `assertCurrent`). */
  staleness(now = Date.now()): string | null {
    if (this.readAt !== undefined && now - this.readAt <= this.maxAgeMs) return null;
    if (this.readAt === undefined) {
      return `the token revocations were never read (${this.failure ?? 'not read yet'})`;
    }
    const age = Math.round((now - this.readAt) / 1000);
    return `the token revocations were last read ${age} s ago (${this.failure ?? 'no read since'})`;
  }

  /** Throws the 503 of an authenticated route while the list is not current (fails closed). */
  assertCurrent(now = Date.now()): void {
    if (this.staleness(now) === null) return;
    throw serviceUnavailable(
      'Tokens cannot be checked against their revocations right now; retry shortly.',
      Math.ceil(this.config.TOKEN_REVOCATION_REFRESH_MS / 1000),
    );
  }

  /**
   * Admits a verified caller whose token was issued at `iat` (seconds) unless it was revoked;
   * remembers `iat`, so an answer that waited can ask `stillAdmits` before it leaves.
   */
  admits(caller: CallerClaims, iat: number): boolean {
    if (this.isRevoked(caller.userId, caller.tokenId, iat)) return false;
    ISSUED_AT.set(caller, iat);
    return true;
  }

  /** Whether an admitted caller's token is still unrevoked (false for a caller never admitted). */
  stillAdmits(caller: CallerClaims): boolean {
    const iat = ISSUED_AT.get(caller);
    return iat !== undefined && !this.isRevoked(caller.userId, caller.tokenId, iat);
  }

  /** Whether a token of `userId` with id `jti`, issued at `iat` (seconds), was revoked. */
  isRevoked(userId: string, jti: string, iat: number): boolean {
    if (this.jtis.has(jti)) return true;
    const before = this.usersBefore.get(userId);
    return before !== undefined && iat <= before;
  }

  private async refresh(): Promise<void> {
    const oldest = Math.floor(Date.now() / 1000) - TOKEN_LIFETIME_SECONDS;
    try {
      const rows: Row[] = await this.db.query(
        `SELECT user_id, jti, issued_before_s FROM api_token_revocations
          WHERE issued_before_s >= ? OR revoked_at_ms >= ?`,
        [oldest, oldest * 1000],
      );
      const jtis = new Set<string>();
      const usersBefore = new Map<string, number>();
      for (const row of rows) {
        if (row.jti !== null) jtis.add(row.jti);
        if (row.user_id !== null && row.issued_before_s !== null) {
          const before = Number(row.issued_before_s);
          usersBefore.set(row.user_id, Math.max(before, usersBefore.get(row.user_id) ?? before));
        }
      }
      this.jtis = jtis;
      this.usersBefore = usersBefore;
      this.readAt = Date.now();
      if (this.failure !== undefined) this.logger.log('The token revocations are read again.');
      this.failure = undefined;
    } catch (error) {
      const first = this.failure === undefined;
      this.failure = readFailure(error);
      // Once per outage: the 503s and readiness say it meanwhile.
      if (first) {
        this.logger.error(
          `Cannot read the token revocations: ${this.failure}. Authenticated routes answer 503 ` +
            `and readiness is down from ${this.maxAgeMs / 1000} s after the last good read.`,
        );
      }
    }
  }
}
