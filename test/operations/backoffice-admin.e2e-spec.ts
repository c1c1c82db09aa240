import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runBackofficeAdmin } from '../../tools/backoffice-admin/backoffice-admin';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { getToken, http } from '../support/http';
import { startTestApp } from '../support/test-app';
import { TestDatabase } from '../support/test-database';

/** A password the admin command's policy accepts (15 characters or more, not the username). */
const LONG_PASSWORD = 'a long enough passphrase';

interface Run {
  code: number;
  out: string;
  err: string;
}

function envOf(db: TestDatabase, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    APP_ENV: 'development',
    DATA_DIR: db.dataDir,
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    ...extra,
  };
}

/** Runs the command in-process, as the CLI does, capturing its output. */
async function admin(
  db: TestDatabase,
  argv: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runBackofficeAdmin(
    argv,
    {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      readStdin: async () => options.stdin ?? '',
    },
    envOf(db, options.env),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describeEachDatabase('Back-office admin command (npm run backoffice)', (ctx) => {
  let shopA: string;
  let shopB: string;
  const q = (sql: string, params: unknown[] = []) => ctx.db.db.query(sql, params);
  const userRow = async (username: string) =>
    (
      await q('SELECT id, password_hash, is_enabled FROM bo_users WHERE username = ?', [username])
    )[0];

  beforeAll(async () => {
    shopA = await createShop(ctx.db.db);
    shopB = await createShop(ctx.db.db);
    await q("INSERT INTO bo_roles (name) VALUES ('ApiUser'), ('Cashier')");
  });

  /**
   * A user of the test's own, made with the command under test: each test reads and changes only
   * its own users, so the tests pass in any order (jest --randomize).
   */
  const makeUser = async (
    username: string,
    options: {
      role?: string;
      shop?: string;
      password?: string;
      disabled?: boolean;
      displayName?: string;
    } = {},
  ) => {
    const argv = ['create-user', username, '--password-stdin'];
    if (options.displayName) argv.push('--display-name', options.displayName);
    if (options.role) argv.push('--role', options.role);
    if (options.shop) argv.push('--shop', options.shop);
    if (options.disabled) argv.push('--disabled');
    const run = await admin(ctx.db, argv, { stdin: `${options.password ?? LONG_PASSWORD}\n` });
    expect(run.code).toBe(0);
  };

  describe('help and usage', () => {
    it('should print every command and the exit codes with --help, exit 0', async () => {
      const run = await admin(ctx.db, ['--help']);
      expect(run.code).toBe(0);
      for (const name of [
        'create-user',
        'enable',
        'disable',
        'grant-role',
        'revoke-role',
        'grant-shop',
        'revoke-shop',
        'list-shops',
        'show',
        'unlock',
        'list',
        'revoke-tokens',
      ]) {
        expect(run.out).toContain(`  ${name}`);
      }
      expect(run.out).toMatch(/Exit codes: 0 done, 1 usage, 2 unknown user\/role\/shop, 3 refused/);
    });

    it('should print the usage of each command with <command> --help or help <command>', async () => {
      for (const argv of [
        ['grant-role', '--help'],
        ['help', 'grant-role'],
        ['grant-role', 'x', '--help'],
      ]) {
        const run = await admin(ctx.db, argv);
        expect(run.code).toBe(0);
        expect(run.out).toMatch(/^Usage: npm run backoffice -- grant-role <username> <role>/);
        expect(run.out).toContain('--yes-production');
      }
    });

    it.each([
      [[], /Missing command/],
      [['frobnicate'], /Unknown command 'frobnicate'/],
      [['show'], /Missing <username>/],
      [['show', 'a', 'b'], /Unexpected argument 'b'/],
      [['show', 'a', '--force'], /Unknown option '--force'/],
      [['create-user', 'x', '--password'], /needs a value/],
      [['create-user', 'x'], /needs --password-stdin/],
      [['create-user', 'x', '--password-stdin'], /password is empty/],
    ])('should exit 1 with a clear message for %j', async (argv, message) => {
      const run = await admin(ctx.db, argv);
      expect(run.code).toBe(1);
      expect(run.err).toMatch(message);
    });
  });

  describe('create-user', () => {
    it('should create a user whose argon2id password the service accepts, with roles and shops', async () => {
      const run = await admin(
        ctx.db,
        [
          'create-user',
          'alice',
          '--password-stdin',
          '--role',
          'ApiUser',
          '--shop',
          shopA,
          '--display-name',
          'Alice A',
        ],
        { stdin: 'correct horse battery\n' },
      );
      expect(run).toMatchObject({
        code: 0,
        out: expect.stringMatching(/^Created user alice \(id \d+\)\.$/),
      });
      expect((await userRow('alice')).password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,/);
      const api = await startTestApp(ctx.db);
      try {
        const token = await getToken(api.baseUrl, 'alice', 'correct horse battery');
        const shops = await http(api.baseUrl, '/api/v1.0/shops', {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(shops.body.data.map((s: { code: string }) => s.code)).toEqual([shopA]);
      } finally {
        await api.close();
      }
    });

    it('should refuse a taken username (any case) with exit 3', async () => {
      await makeUser('taken');
      const run = await admin(ctx.db, ['create-user', 'TAKEN', '--password', LONG_PASSWORD], {});
      expect(run.code).toBe(3);
      expect(run.err).toMatch(/taken/);
    });

    it('should write nothing and exit 2 when a role or shop is unknown', async () => {
      const role = await admin(ctx.db, [
        'create-user',
        'bob',
        '--password',
        LONG_PASSWORD,
        '--role',
        'Wizard',
      ]);
      expect(role.code).toBe(2);
      expect(role.err).toMatch(/Unknown role 'Wizard'\. Roles: ApiUser, Cashier/);
      const shop = await admin(ctx.db, [
        'create-user',
        'bob',
        '--password',
        LONG_PASSWORD,
        '--shop',
        'NOPE',
      ]);
      expect(shop.code).toBe(2);
      expect(shop.err).toMatch(/Unknown shop 'NOPE'/);
      // The valid codes, as for an unknown role (issue 22).
      expect(shop.err).toMatch(/Shops: ([A-Z0-9]+, )*[A-Z0-9]+$/m);
      expect(await userRow('bob')).toBeUndefined();
    });

    it.each([
      ['too short', 'dave', 'fourteen chars', /has 14 characters: it needs at least 15/],
      ['the username', 'dave-integration', 'DAVE-integration', /is the username/],
      ['containing the username', 'dave', 'dave-is-my-password', /contains the username/],
    ])(
      'should refuse a password %s with exit 3, a clear message and nothing written',
      async (_, username, password, message) => {
        const run = await admin(ctx.db, ['create-user', username, '--password-stdin'], {
          stdin: `${password}\n`,
        });
        expect(run.code).toBe(3);
        expect(run.err).toMatch(message);
        expect(run.err).toMatch(/Nothing was written\. A password has at least 15 characters/);
        expect(run.out).toBe('');
        expect(await userRow(username)).toBeUndefined();
      },
    );

    it('should warn that --password is visible to other users of the machine', async () => {
      const run = await admin(ctx.db, [
        'create-user',
        'carol',
        '--password',
        LONG_PASSWORD,
        '--disabled',
      ]);
      expect(run.code).toBe(0);
      expect(run.err).toMatch(/process list/);
      expect(Number((await userRow('carol')).is_enabled)).toBe(0);
    });
  });

  describe('enable, disable, roles and shops', () => {
    it('should enable and disable, saying when there is nothing to do', async () => {
      await makeUser('enabling', { disabled: true });
      expect((await admin(ctx.db, ['enable', 'enabling'])).out).toBe('Enabled enabling.');
      expect(Number((await userRow('enabling')).is_enabled)).toBe(1);
      expect(await admin(ctx.db, ['enable', 'Enabling'])).toMatchObject({
        code: 0,
        out: 'enabling is enabled: nothing to do.',
      });
      expect((await admin(ctx.db, ['disable', 'enabling'])).code).toBe(0);
      expect(Number((await userRow('enabling')).is_enabled)).toBe(0);
    });

    it('should grant and revoke a role, case-insensitively, idempotently', async () => {
      await makeUser('roles');
      expect(await admin(ctx.db, ['grant-role', 'roles', 'apiuser'])).toMatchObject({
        code: 0,
        out: 'Granted apiuser to roles.',
      });
      expect((await admin(ctx.db, ['grant-role', 'roles', 'ApiUser'])).out).toMatch(
        /nothing to do/,
      );
      expect(JSON.parse((await admin(ctx.db, ['show', 'roles', '--json'])).out).roles).toEqual([
        'ApiUser',
      ]);
      expect((await admin(ctx.db, ['revoke-role', 'roles', 'ApiUser'])).code).toBe(0);
      expect((await admin(ctx.db, ['revoke-role', 'roles', 'ApiUser'])).out).toMatch(
        /nothing to do/,
      );
      expect(JSON.parse((await admin(ctx.db, ['show', 'roles', '--json'])).out).roles).toEqual([]);
    });

    it('should grant and revoke several shops', async () => {
      await makeUser('shops');
      expect((await admin(ctx.db, ['grant-shop', 'shops', shopA, shopB])).code).toBe(0);
      expect(JSON.parse((await admin(ctx.db, ['show', 'shops', '--json'])).out).shops).toEqual(
        [shopA, shopB].sort(),
      );
      expect((await admin(ctx.db, ['revoke-shop', 'shops', shopB])).code).toBe(0);
      expect(JSON.parse((await admin(ctx.db, ['show', 'shops', '--json'])).out).shops).toEqual([
        shopA,
      ]);
    });

    it('should list the shops with the users each is granted to, as text and JSON', async () => {
      const [granted, none] = [await createShop(ctx.db.db), await createShop(ctx.db.db)];
      await makeUser('listed-b', { shop: granted });
      await makeUser('listed-a', { shop: granted, disabled: true });
      const text = await admin(ctx.db, ['list-shops']);
      expect(text.code).toBe(0);
      const lines = text.out.split('\n');
      expect(lines[0]).toMatch(/^CODE\s+NAME\s+ACTIVE\s+TIME ZONE\s+CURRENCY\s+GRANTED TO$/);
      expect(lines.find((l) => l.startsWith(`${granted} `))).toMatch(
        /\syes\s.*\s(listed-a,listed-b)$/,
      );
      expect(lines.find((l) => l.startsWith(`${none} `))).toMatch(/\s-$/);
      const json = JSON.parse((await admin(ctx.db, ['list-shops', '--json'])).out);
      const codes = json.map((shop: { code: string }) => shop.code);
      expect(codes).toEqual(expect.arrayContaining([shopA, shopB, granted, none]));
      expect(codes).toEqual([...codes].sort());
      expect(json.find((shop: { code: string }) => shop.code === granted)).toMatchObject({
        active: true,
        users: ['listed-a', 'listed-b'],
        currency: expect.stringMatching(/^[A-Z]{3}$/),
        timeZone: expect.any(String),
      });
    });

    it('should say, after revoke-shop and disable, that issued tokens keep working until their expiry, and when the last one expires; the token does, with the revoked shop (contract rules 5 and 6)', async () => {
      await makeUser('tokens', { role: 'ApiUser', shop: shopA, password: 'correct horse battery' });
      await admin(ctx.db, ['grant-shop', 'tokens', shopB]);
      const api = await startTestApp(ctx.db);
      try {
        const issued = await http(api.baseUrl, '/api/v1.0/Token', {
          method: 'POST',
          json: { username: 'tokens', password: 'correct horse battery' },
        });
        expect(issued.status).toBe(200);
        const expiration = Date.parse(issued.body.expiration);

        const revoked = await admin(ctx.db, ['revoke-shop', 'tokens', shopB]);
        expect(revoked.code).toBe(0);
        const lines = revoked.out.split('\n');
        expect(lines[0]).toBe(`Revoked shop ${shopB} from tokens.`);
        expect(lines[1]).toBe(
          `Tokens already issued to tokens keep working with shop ${shopB} until they expire,`,
        );
        const last = /the last of them by (\S+Z)\.$/.exec(lines[2]);
        expect(last).not.toBeNull();
        // The printed moment is that of a token signed now: never before the one just issued.
        const printed = Date.parse(last?.[1] ?? '');
        expect(printed).toBeGreaterThanOrEqual(expiration);
        expect(printed - expiration).toBeLessThan(60_000);
        expect(lines[3]).toBe('To end them now: npm run backoffice -- revoke-tokens --user tokens');

        const disabled = await admin(ctx.db, ['disable', 'tokens']);
        expect(disabled.out).toMatch(
          /^Disabled tokens\.\nTokens already issued to tokens keep working until they expire,\n48 hours after their sign-in: the last of them by \S+Z\.\nTo end them now: /,
        );
        const shops = await http(api.baseUrl, '/api/v1.0/shops', {
          headers: { Authorization: `Bearer ${issued.body.token}` },
        });
        expect(shops.status).toBe(200);
        expect(shops.body.data.map((shop: { code: string }) => shop.code)).toContain(shopB);
        // Nothing changed: nothing to say about tokens.
        expect((await admin(ctx.db, ['disable', 'tokens'])).out).toBe(
          'tokens is disabled: nothing to do.',
        );
        expect((await admin(ctx.db, ['revoke-shop', 'tokens', shopB])).out).toBe(
          `tokens does not have shop ${shopB}: nothing to do.`,
        );
      } finally {
        await admin(ctx.db, ['enable', 'tokens']);
        await api.close();
      }
    });

    it('should exit 2 for an unknown user, role or shop, writing nothing', async () => {
      await makeUser('unknowns', { shop: shopA });
      for (const argv of [
        ['enable', 'nobody'],
        ['grant-role', 'nobody', 'ApiUser'],
        ['show', 'nobody'],
      ]) {
        const run = await admin(ctx.db, argv);
        expect([argv, run.code]).toEqual([argv, 2]);
        expect(run.err).toMatch(/Unknown user 'nobody'/);
      }
      expect((await admin(ctx.db, ['grant-role', 'unknowns', 'Wizard'])).code).toBe(2);
      const shops = await admin(ctx.db, ['grant-shop', 'unknowns', shopB, 'NOPE']);
      expect(shops.code).toBe(2);
      expect(JSON.parse((await admin(ctx.db, ['show', 'unknowns', '--json'])).out).shops).toEqual([
        shopA,
      ]);
    });
  });

  describe('show, unlock and list', () => {
    // A success leaves the name's rows at zero (it resets them), so the lock replaces its row.
    const lock = async (key: string, until: number) => {
      await q("DELETE FROM api_login_failures WHERE username_key = ? AND client_key = ''", [key]);
      await q(
        "INSERT INTO api_login_failures (username_key, client_key, failure_count, first_failure_at_ms, locked_until_ms) VALUES (?, '', 5, ?, ?)",
        [key, Date.now() - 60_000, until],
      );
    };

    it('should show roles, shops and a lock', async () => {
      await makeUser('shown', { role: 'ApiUser', shop: shopA, displayName: 'Shown S' });
      await lock('shown', Date.now() + 600_000);
      const text = await admin(ctx.db, ['show', 'Shown']);
      expect(text.code).toBe(0);
      expect(text.out).toMatch(/^User {5}shown \(id \d+\)$/m);
      expect(text.out).toMatch(/^Roles {4}ApiUser$/m);
      expect(text.out).toMatch(new RegExp(`^Shops {4}${shopA}$`, 'm'));
      expect(text.out).toMatch(/^Sign-in {2}LOCKED until \S+ \(5 consecutive failures\)$/m);
      const json = JSON.parse((await admin(ctx.db, ['show', 'shown', '--json'])).out);
      expect(json).toMatchObject({
        username: 'shown',
        enabled: true,
        displayName: 'Shown S',
        lock: { failures: 5 },
      });
    });

    it('should unlock a username so that the right password works again', async () => {
      await makeUser('unlocked', {
        role: 'ApiUser',
        shop: shopA,
        password: 'correct horse battery',
      });
      await lock('unlocked', Date.now() + 600_000);
      const api = await startTestApp(ctx.db);
      try {
        const locked = await http(api.baseUrl, '/api/v1.0/Token', {
          method: 'POST',
          json: { username: 'unlocked', password: 'correct horse battery' },
        });
        expect(locked.status).toBe(429);
        expect(await admin(ctx.db, ['unlock', 'UNLOCKED'])).toMatchObject({
          code: 0,
          out: 'Cleared the sign-in failures of UNLOCKED.',
        });
        expect(
          (await q('SELECT * FROM api_login_failures WHERE username_key = ?', ['unlocked'])).length,
        ).toBe(0);
        await expect(getToken(api.baseUrl, 'unlocked', 'correct horse battery')).resolves.toEqual(
          expect.any(String),
        );
      } finally {
        await api.close();
      }
      expect((await admin(ctx.db, ['unlock', 'unlocked'])).out).toMatch(/nothing to do/);
    });

    it('should unlock a username that does not exist but was tried, and exit 2 when there is neither', async () => {
      await lock('ghost', Date.now() + 600_000);
      expect((await admin(ctx.db, ['unlock', 'ghost'])).code).toBe(0);
      const none = await admin(ctx.db, ['unlock', 'ghost']);
      expect(none.code).toBe(2);
      expect(none.err).toMatch(/Unknown user 'ghost'/);
    });

    it('should list the users with their state, as text and JSON', async () => {
      await makeUser('listing', { shop: shopA, disabled: true });
      const text = await admin(ctx.db, ['list']);
      expect(text.code).toBe(0);
      const lines = text.out.split('\n');
      expect(lines[0]).toMatch(/^USERNAME\s+ENABLED\s+SHOPS\s+LOCKED\s+ROLES$/);
      expect(lines.find((l) => l.startsWith('listing '))).toMatch(/^listing\s+no\s+1\s+no\s+-$/);
      const json = JSON.parse((await admin(ctx.db, ['list', '--json'])).out);
      const names = json.map((u: { username: string }) => u.username);
      expect(names).toContain('listing');
      expect(names).toEqual([...names].sort());
    });
  });

  describe('production and database errors', () => {
    it('should refuse every write with APP_ENV=production unless --yes-production (exit 3), and allow reads', async () => {
      await makeUser('producer');
      const production = { APP_ENV: 'production' };
      for (const argv of [
        ['disable', 'producer'],
        ['grant-role', 'producer', 'Cashier'],
        ['unlock', 'producer'],
        ['create-user', 'dan', '--password', 'x'],
      ]) {
        const run = await admin(ctx.db, argv, { env: production });
        expect([argv, run.code]).toEqual([argv, 3]);
        expect(run.err).toMatch(/APP_ENV=production: add --yes-production/);
      }
      expect(Number((await userRow('producer')).is_enabled)).toBe(1);
      if (ctx.kind === 'mysql') {
        expect((await admin(ctx.db, ['show', 'producer'], { env: production })).code).toBe(0);
        expect(
          (
            await admin(ctx.db, ['grant-role', 'producer', 'Cashier', '--yes-production'], {
              env: production,
            })
          ).code,
        ).toBe(0);
        expect(
          (
            await admin(ctx.db, ['revoke-role', 'producer', 'Cashier', '--yes-production'], {
              env: production,
            })
          ).code,
        ).toBe(0);
      } else {
        // Production needs DATABASE_URL: the embedded database is for development only.
        const run = await admin(ctx.db, ['show', 'producer'], { env: production });
        expect(run.code).toBe(4);
        expect(run.err).toMatch(/DATABASE_URL: required when APP_ENV=production/);
      }
    });

    it('should refuse a write when APP_ENV is unset and DATABASE_URL set, as production (exit 3); on the embedded demo database, without either, work as npm start does (issue 22)', async () => {
      await makeUser('unset');
      const unset = envOf(ctx.db);
      delete unset.APP_ENV;
      const err: string[] = [];
      const out: string[] = [];
      const io = {
        out: (t: string) => out.push(t),
        err: (t: string) => err.push(t),
        readStdin: async () => '',
      };
      if (unset.DATABASE_URL) {
        expect(await runBackofficeAdmin(['disable', 'unset'], io, unset)).toBe(3);
        expect(err.join('\n')).toMatch(/APP_ENV=production: add --yes-production/);
      } else {
        expect(await runBackofficeAdmin(['list'], io, unset)).toBe(0);
        expect(out.join('\n')).toMatch(/unset/);
        expect(err).toEqual([]);
      }
      expect(Number((await userRow('unset')).is_enabled)).toBe(1);
    });

    it('should exit 4 when the database cannot be reached or has no tables', async () => {
      const empty = mkdtempSync(path.join(tmpdir(), 'pos-api-admin-'));
      const missing = await runBackofficeAdmin(
        ['list'],
        { out: () => undefined, err: () => undefined, readStdin: async () => '' },
        { APP_ENV: 'development', DATA_DIR: empty },
      );
      expect(missing).toBe(4);
      const unreachable = await admin(ctx.db, ['list'], {
        env: {
          DATABASE_URL: 'mysql://root@127.0.0.1:1/nothing',
          DATABASE_CONNECT_TIMEOUT_MS: '500',
        },
      });
      expect(unreachable.code).toBe(4);
      expect(unreachable.err).toMatch(/Cannot open the database of DATABASE_URL/);
    });
  });

  describe('as a real process', () => {
    const run = (argv: string[], stdin?: string) =>
      new Promise<Run>((resolve) => {
        const child = spawn(
          process.execPath,
          [
            '-r',
            path.join(__dirname, '../support/swc-register.js'),
            path.join(__dirname, '../../tools/backoffice-admin/backoffice.cli.ts'),
            ...argv,
          ],
          { env: { PATH: process.env.PATH, ...envOf(ctx.db) } },
        );
        let out = '';
        let err = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (err += c.toString()));
        child.stdin.end(stdin ?? '');
        child.on('exit', (code) => resolve({ code: code ?? -1, out, err }));
      });

    it('should exit with the documented codes and read the password from standard input', async () => {
      expect(
        await run(
          ['create-user', 'erin', '--password-stdin', '--role', 'ApiUser'],
          'a-password-from-stdin\n',
        ),
      ).toMatchObject({ code: 0 });
      const shown = await run(['show', 'erin', '--json']);
      expect(shown.code).toBe(0);
      expect(JSON.parse(shown.out)).toMatchObject({ username: 'erin', roles: ['ApiUser'] });
      expect((await run(['show', 'nobody'])).code).toBe(2);
      expect((await run(['bogus'])).code).toBe(1);
      const refused = await run(['create-user', 'frank', '--password-stdin'], 'short\n');
      expect(refused.code).toBe(3);
      expect(refused.err).toMatch(/^The password has 5 characters: it needs at least 15\./);
      const createdHash = (await userRow('erin')).password_hash as string;
      expect(createdHash).toMatch(/^\$argon2id\$/);
    });
  });
});
