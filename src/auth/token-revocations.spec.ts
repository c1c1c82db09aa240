import { setTimeout as realSleep } from 'node:timers/promises';
import { loadConfig } from '../config/load-config';
import { databaseKinds, type MigratedDatabase } from '../database/testing/migrated-database';
import { TokenRevocations } from './token-revocations';

const NOW_S = 1_767_600_000;
const HOURS_48 = 48 * 3600;
const config = loadConfig({ APP_ENV: 'development', TOKEN_REVOCATION_REFRESH_MS: '1000' });

for (const { kind, describe: describeOn, open } of databaseKinds()) {
  describeOn(`${TokenRevocations.name} [${kind === 'mysql' ? 'mariadb' : kind}]`, () => {
    let database: MigratedDatabase;
    let revocations: TokenRevocations;
    const now = NOW_S * 1000;

    const revoke = (userId: string | null, jti: string | null, before: number | null, atMs = now) =>
      database.db.query(
        `INSERT INTO api_token_revocations (user_id, jti, issued_before_s, revoked_at_ms) VALUES (?, ?, ?, ?)`,
        [userId, jti, before, atMs],
      );
    /**
     * The next refresh, as its interval runs it; on MariaDB its query answers over the network, so
     * this waits (on the real clock, up to 5 s) until `seen` holds.
     */
    const refreshed = async (seen: () => boolean = () => true) => {
      await jest.advanceTimersByTimeAsync(1000);
      for (let waited = 0; !seen() && waited < 5000; waited += 10) await realSleep(10);
    };

    beforeAll(async () => {
      database = await open();
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      jest.spyOn(Date, 'now').mockImplementation(() => now);
      await revoke(null, 'jti-1', null);
      await revoke('u1', null, NOW_S - 100);
      await revoke('u1', null, NOW_S - 10);
      await revoke('u1', null, NOW_S - 50);
      revocations = new TokenRevocations(database.db, config);
      await revocations.onModuleInit();
    });
    afterAll(async () => {
      revocations.onApplicationShutdown();
      jest.useRealTimers();
      jest.restoreAllMocks();
      await database.close();
    });

    it('should refuse a revoked token id, whoever it belongs to', () => {
      expect(revocations.isRevoked('anyone', 'jti-1', NOW_S)).toBe(true);
      expect(revocations.isRevoked('anyone', 'jti-2', NOW_S)).toBe(false);
    });

    it("should refuse a user's tokens issued up to the latest of their revocations, not after", () => {
      expect(revocations.isRevoked('u1', 'a', NOW_S - 10)).toBe(true);
      expect(revocations.isRevoked('u1', 'b', NOW_S - 9)).toBe(false);
      expect(revocations.isRevoked('u2', 'c', NOW_S - 200)).toBe(false);
    });

    it('should see a new revocation at the next refresh', async () => {
      await revoke('u2', null, NOW_S);
      await revoke(null, 'jti-2', null);
      expect(revocations.isRevoked('u2', 'c', NOW_S)).toBe(false);
      await refreshed(() => revocations.isRevoked('anyone', 'jti-2', NOW_S));
      expect(revocations.isRevoked('u2', 'c', NOW_S)).toBe(true);
      expect(revocations.isRevoked('anyone', 'jti-2', NOW_S)).toBe(true);
    });

    it('should forget revocations no unexpired token can concern, keep those that can', async () => {
      // Revoked 48 hours ago and more: every token they concern has expired.
      await revoke(null, 'jti-old', null, now - HOURS_48 * 1000 - 1000);
      await revoke(null, 'jti-edge', null, now - HOURS_48 * 1000);
      await revoke('u3', null, NOW_S - HOURS_48 - 1, now - HOURS_48 * 1000 - 1000);
      await revoke('u4', null, NOW_S - HOURS_48, now - HOURS_48 * 1000 - 1000);
      await refreshed(() => revocations.isRevoked('anyone', 'jti-edge', NOW_S));
      expect(revocations.isRevoked('anyone', 'jti-old', NOW_S)).toBe(false);
      expect(revocations.isRevoked('anyone', 'jti-edge', NOW_S)).toBe(true);
      expect(revocations.isRevoked('u3', 'x', NOW_S - HOURS_48 - 1)).toBe(false);
      expect(revocations.isRevoked('u4', 'x', NOW_S - HOURS_48)).toBe(true);
    });

    it('should keep the last list in force while the database cannot be read', async () => {
      await database.db.query(
        'ALTER TABLE api_token_revocations RENAME TO api_token_revocations_away',
      );
      try {
        await refreshed();
        expect(revocations.isRevoked('anyone', 'jti-1', NOW_S)).toBe(true);
        expect(revocations.isRevoked('u1', 'a', NOW_S - 10)).toBe(true);
      } finally {
        await database.db.query(
          'ALTER TABLE api_token_revocations_away RENAME TO api_token_revocations',
        );
      }
    });

    it('should stop refreshing at shutdown', async () => {
      revocations.onApplicationShutdown();
      await revoke(null, 'jti-late', null);
      await refreshed();
      expect(revocations.isRevoked('anyone', 'jti-late', NOW_S)).toBe(false);
    });
  });
}
