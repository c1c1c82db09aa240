import { runBackofficeAdmin } from '../../src/backoffice-admin/backoffice-admin';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = '/api/v1.0/Token';

/**
 * The back-office finds a user by its column's collation: utf8mb4_unicode_ci ignores case,
 * accents and trailing spaces ('DEMO', 'démo' and 'demo ' find 'demo'); SQLite's NOCASE ignores
 * ASCII case only. Every spelling that finds the user must spend that user's one failure budget,
 * whatever the collation of the service's own table.
 */
describeEachDatabase('Sign-in lockout under every spelling of a username', (ctx) => {
  let api: TestApp;

  beforeAll(async () => {
    if (ctx.kind === 'mysql') {
      // As in a database whose default collation is not the back-office's (MySQL 8's default
      // utf8mb4_0900_ai_ci keeps trailing spaces; utf8mb4_nopad_bin keeps case, accents and
      // spaces): the lockout must not rely on api_login_failures comparing keys the way
      // bo_users compares usernames.
      await ctx.db.db.query(
        'ALTER TABLE api_login_failures CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin',
      );
    }
    api = await startTestApp(ctx.db, {
      LOGIN_MAX_FAILURES: '3',
      TOKEN_RATE_LIMIT_PER_MINUTE: '10000',
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const post = (username: string, password: string) =>
    http(api.baseUrl, TOKEN, { method: 'POST', json: { username, password } });

  /** Fails once with each spelling (each still a plain 401), after checking the lookup finds the user by it. */
  const failWith = async (spellings: string[], userId?: string) => {
    for (const spelling of spellings) {
      const found: Array<{ id: number | string }> = await ctx.db.db.query(
        'SELECT id FROM bo_users WHERE username = ?',
        [spelling],
      );
      expect([spelling, found.map((r) => String(r.id))]).toEqual([
        spelling,
        userId === undefined ? [] : [userId],
      ]);
      expect([spelling, (await post(spelling, 'wrong')).status]).toEqual([spelling, 401]);
    }
  };

  /** Spellings of `name` the database's lookup finds the user by. */
  const spellingsOf = (name: string) =>
    ctx.kind === 'mysql'
      ? [name, name.toUpperCase(), `${name} `]
      : [name, name.toUpperCase(), name[0].toUpperCase() + name.slice(1)];

  it("should lock a user after LOGIN_MAX_FAILURES failures spread over spellings that find it ('demo', 'DEMO', and 'demo ' on MariaDB), even with the right password", async () => {
    const user = await createUser(ctx.db.db, { username: 'demo' });
    await failWith(spellingsOf('demo'), user.id);
    const locked = await post('demo', user.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
  });

  if (ctx.kind === 'mysql') {
    it("should count accented spellings the collation finds the user by ('renée', 'RENÉE ') against that user", async () => {
      const user = await createUser(ctx.db.db, { username: 'renee' });
      await failWith(['renée', 'RENÉE ', 'rènee'], user.id);
      expect((await post('renee', user.password)).status).toBe(429);
    });
  }

  it('should lock a name that finds no user under all its spellings (case, accents, trailing spaces)', async () => {
    await failWith(['ghost', 'GHOST ', 'ghóst']);
    expect((await post('Ghost', 'guess')).status).toBe(429);
  });

  it("should let the admin command's unlock, given any spelling, clear a lock counted under several", async () => {
    const user = await createUser(ctx.db.db, { username: 'dave' });
    await failWith(spellingsOf('dave'), user.id);
    expect((await post('dave', user.password)).status).toBe(429);
    const out: string[] = [];
    const code = await runBackofficeAdmin(
      ['unlock', 'DAVE'],
      { out: (t) => out.push(t), err: (t) => out.push(t), readStdin: async () => '' },
      {
        APP_ENV: 'development',
        DATA_DIR: ctx.db.dataDir,
        ...(ctx.db.databaseUrl ? { DATABASE_URL: ctx.db.databaseUrl } : {}),
      },
    );
    expect([code, out]).toEqual([0, ['Cleared the sign-in failures of DAVE.']]);
    expect((await post('dave', user.password)).status).toBe(200);
  });
});
