import { runBackofficeAdmin } from '../../tools/backoffice-admin/backoffice-admin';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = '/api/v1.0/Token';

/**
 * The back-office finds a user by its column's collation: utf8mb4_unicode_ci ignores case,
 * accents, width and trailing spaces ('DEMO', 'démo', 'ｄemo' and 'demo ' find 'demo'); SQLite's
 * NOCASE ignores ASCII case only. api_login_failures compares names with that same collation
 * (declared by its migration, never the database's default), so every spelling that finds the
 * user spends the one budget of the name, and a name that finds no user is folded the same way.
 */
describeEachDatabase('Sign-in lockout under every spelling of a username', (ctx) => {
  let api: TestApp;

  beforeAll(async () => {
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

  it('should lock a name that finds no user under the spellings the back-office folds together', async () => {
    await failWith(spellingsOf('ghost'));
    expect((await post('Ghost', 'guess')).status).toBe(429);
  });

  /** Locks `name` with a spelling, then says whether the plain name is locked too. */
  const lockedBySpelling = async (name: string, spelling: string) => {
    for (let i = 0; i < 3; i++) await post(spelling, 'wrong');
    return (await post(name, 'wrong')).status;
  };
  const spellingCases = [
    ['upper case', (n: string) => n.toUpperCase()],
    [
      'a fullwidth first letter',
      (n: string) => String.fromCodePoint(0xff41 + n.charCodeAt(0) - 97) + n.slice(1),
    ],
    ['an accent', (n: string) => `${n[0]}\u0301${n.slice(1)}`],
    ['a trailing space', (n: string) => `${n} `],
  ] as const;

  it.each(spellingCases)(
    'should lock a name spelt with %s exactly as much whether or not a user has the name',
    async (_case, spell) => {
      const existing = await createUser(ctx.db.db, { username: `exists${_case.length}x` });
      const missing = `absent${_case.length}x`;
      const statuses = [
        await lockedBySpelling(existing.username, spell(existing.username)),
        await lockedBySpelling(missing, spell(missing)),
      ];
      expect(statuses[0]).toBe(statuses[1]);
    },
  );

  if (ctx.kind === 'mysql') {
    it('should declare api_login_failures.username_key with the character set and collation of bo_users.username', async () => {
      const columns: Array<{ t: string; cs: string; co: string }> = await ctx.db.db.query(
        `SELECT TABLE_NAME AS t, CHARACTER_SET_NAME AS cs, COLLATION_NAME AS co
           FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
            AND ((TABLE_NAME = 'bo_users' AND COLUMN_NAME = 'username')
              OR (TABLE_NAME = 'api_login_failures' AND COLUMN_NAME = 'username_key'))`,
      );
      const [a, b] = columns;
      expect([a.cs, a.co]).toEqual([b.cs, b.co]);
      expect(a.cs).toBe('utf8mb4');
    });
  }

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
