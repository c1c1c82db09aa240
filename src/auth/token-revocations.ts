import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { TOKEN_LIFETIME_SECONDS } from '../config/limits';

interface Row {
  user_id: string | null;
  jti: string | null;
  issued_before_s: number | string | null;
}

/**
 * The emergency revocations of `npm run backoffice -- revoke-tokens` (api_token_revocations),
 * held in memory and re-read every TOKEN_REVOCATION_REFRESH_MS: checking a token costs no
 * database round trip, and a revocation reaches every instance within that time. Only rows that
 * can still concern an unexpired token are read. If a refresh fails (database away), the last
 * list stays in force. Disable and revoke-shop never write here (contract rules 5 and 6).
 */
@Injectable()
export class TokenRevocations implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('TokenRevocations');
  private jtis = new Set<string>();
  private usersBefore = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.config.TOKEN_REVOCATION_REFRESH_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
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
    } catch (error) {
      this.logger.warn(
        `Cannot read the token revocations (${(error as Error).message}); the last list stays in force.`,
      );
    }
  }
}
