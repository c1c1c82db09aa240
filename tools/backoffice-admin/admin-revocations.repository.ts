import type { DataSource, EntityManager } from 'typeorm';

/** The service's emergency token revocations (api_token_revocations), which the admin writes. */
export class AdminRevocationsRepository {
  constructor(private readonly db: DataSource | EntityManager) {}

  /** Revokes every token of `userId` (its `sub`) issued at or before `issuedBeforeS`. */
  async revokeUserTokens(userId: string, issuedBeforeS: number, now = Date.now()): Promise<void> {
    await this.db.query(
      'INSERT INTO api_token_revocations (user_id, jti, issued_before_s, revoked_at_ms) VALUES (?, NULL, ?, ?)',
      [userId, issuedBeforeS, now],
    );
  }

  /** Revokes the one token whose `jti` this is. */
  async revokeToken(jti: string, now = Date.now()): Promise<void> {
    await this.db.query(
      'INSERT INTO api_token_revocations (user_id, jti, issued_before_s, revoked_at_ms) VALUES (NULL, ?, NULL, ?)',
      [jti, now],
    );
  }
}
