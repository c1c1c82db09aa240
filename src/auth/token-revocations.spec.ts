import { Logger } from '@nestjs/common';
import { setTimeout as realSleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { ProblemException } from '../common/errors/problem';
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

    // Each test revokes ids of its own (u5, jti-5 here): the others' "not revoked" stay so,
    // whatever the order the tests run in (jest --randomize).
    it('should see a new revocation at the next refresh', async () => {
      await revoke('u5', null, NOW_S);
      await revoke(null, 'jti-5', null);
      expect(revocations.isRevoked('u5', 'c', NOW_S)).toBe(false);
      await refreshed(() => revocations.isRevoked('anyone', 'jti-5', NOW_S));
      expect(revocations.isRevoked('u5', 'c', NOW_S)).toBe(true);
      expect(revocations.isRevoked('anyone', 'jti-5', NOW_S)).toBe(true);
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

    it('should admit a caller whose token is not revoked, and re-check it later by its iat', () => {
      const caller = { userId: 'u1', username: 'u', roles: [], shopCodes: [], tokenId: 'fresh' };
      expect(revocations.admits(caller, NOW_S - 10)).toBe(false);
      expect(revocations.stillAdmits(caller)).toBe(false);
      expect(revocations.admits(caller, NOW_S - 9)).toBe(true);
      expect(revocations.stillAdmits(caller)).toBe(true);
      expect(revocations.stillAdmits({ ...caller })).toBe(false);
      expect(revocations.admits({ ...caller, tokenId: 'jti-1' }, NOW_S)).toBe(false);
    });

    it('should be current within three refresh periods (15 s at least) of its last read, and fail closed past them', () => {
      expect(revocations.maxAgeMs).toBe(15_000);
      expect(
        new TokenRevocations(database.db, { TOKEN_REVOCATION_REFRESH_MS: 6_000 } as typeof config)
          .maxAgeMs,
      ).toBe(18_000);
      expect(revocations.staleness(now + 15_000)).toBeNull();
      expect(() => revocations.assertCurrent(now + 15_000)).not.toThrow();
      expect(revocations.staleness(now + 15_001)).toBe(
        'the token revocations were last read 15 s ago (no read since)',
      );
      let thrown: unknown;
      try {
        revocations.assertCurrent(now + 15_001);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ProblemException);
      const problem = thrown as ProblemException;
      expect([problem.getStatus(), problem.headers['Retry-After']]).toEqual([503, '1']);
      expect(problem.detail).toMatch(/revocations/);
    });

    it('should say it was never read, and why, before its first good read', async () => {
      const fresh = new TokenRevocations(database.db, config);
      expect(fresh.staleness(now)).toBe('the token revocations were never read (not read yet)');
      const failing = {
        query: () =>
          Promise.reject(Object.assign(new Error('denied'), { driverError: { errno: 1142 } })),
      } as unknown as DataSource;
      const denied = new TokenRevocations(failing, config);
      const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      await denied.onModuleInit();
      await jest.advanceTimersByTimeAsync(1000);
      denied.onApplicationShutdown();
      expect(denied.staleness(now)).toBe(
        'the token revocations were never read (the database account lacks SELECT on ' +
          'api_token_revocations: run sql/least-privilege.sql (GRANT SELECT ON api_token_revocations))',
      );
      // Once per outage, not at every refresh.
      expect(errors).toHaveBeenCalledTimes(1);
      expect(errors.mock.calls[0][0]).toMatch(
        /^Cannot read the token revocations: the database account lacks SELECT/,
      );
      const other = new TokenRevocations(
        {
          query: () => Promise.reject(Object.assign(new Error('gone'), { errno: 2013 })),
        } as unknown as DataSource,
        config,
      );
      await other.onModuleInit();
      other.onApplicationShutdown();
      expect(other.staleness(now)).toBe('the token revocations were never read (gone)');
      errors.mockRestore();
    });

    it('should keep the last list in force while the database cannot be read, and log it again once read', async () => {
      await database.db.query(
        'ALTER TABLE api_token_revocations RENAME TO api_token_revocations_away',
      );
      const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const logs = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
      try {
        await refreshed(() => errors.mock.calls.length > 0);
        expect(revocations.isRevoked('anyone', 'jti-1', NOW_S)).toBe(true);
        expect(revocations.isRevoked('u1', 'a', NOW_S - 10)).toBe(true);
        expect(revocations.staleness(now)).toBeNull();
        expect(logs).not.toHaveBeenCalled();
      } finally {
        await database.db.query(
          'ALTER TABLE api_token_revocations_away RENAME TO api_token_revocations',
        );
      }
      await refreshed(() => logs.mock.calls.length > 0);
      expect(logs).toHaveBeenCalledWith('The token revocations are read again.');
      errors.mockRestore();
      logs.mockRestore();
    });

    it('should stop refreshing at shutdown', async () => {
      // An instance of its own: the shared one keeps refreshing for the other tests.
      const stopped = new TokenRevocations(database.db, config);
      await stopped.onModuleInit();
      stopped.onApplicationShutdown();
      await revoke(null, 'jti-late', null);
      await refreshed(() => revocations.isRevoked('anyone', 'jti-late', NOW_S));
      expect(revocations.isRevoked('anyone', 'jti-late', NOW_S)).toBe(true);
      expect(stopped.isRevoked('anyone', 'jti-late', NOW_S)).toBe(false);
    });
  });
}
