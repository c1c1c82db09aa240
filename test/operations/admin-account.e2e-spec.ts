import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { runBackofficeAdmin } from '../../tools/backoffice-admin/backoffice-admin';
import {
  ACCOUNT_SCRIPTS,
  type AccountKind,
  adminAccountScript,
  grantAppDatabaseAccount,
} from '../support/app-database-account';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { program, requires } from '../support/requirements';

jest.setTimeout(120_000);

const PASSPHRASE = 'a long enough passphrase for the admin';

interface Run {
  argv: string[];
  code: number;
  err: string;
}

/**
 * GRANT lines of sql/admin-account.sql: [table, privilege] pairs, a privilege with its columns
 * when the grant names them ("SELECT (id, username)").
 */
function scriptGrants(): Array<[string, string]> {
  return [...adminAccountScript('pos_api_admin').matchAll(/^GRANT (.+) ON (\S+) TO /gm)].flatMap(
    ([, privileges, table]) =>
      privileges.split(/, (?![^(]*\))/).map((privilege): [string, string] => [table, privilege]),
  );
}

/**
 * Issue 46, item 2: an account per job. sql/admin-account.sql gives the admin command exactly
 * what its commands need (every command runs with it; without any one of its grants, a command
 * fails naming that grant), and the command names the grant an account lacks instead of calling
 * the tables missing.
 */
describeEachDatabase('The admin command as the account of sql/admin-account.sql', (ctx) => {
  if (ctx.kind !== 'mysql') {
    it('is MySQL/MariaDB only: SQLite has no accounts', () => undefined);
    return;
  }
  // Nested: its afterAll (dropping the accounts) runs before the database is closed.
  describe('accounts made by the scripts [mariadb]', () => {
    const suffix = randomBytes(3).toString('hex');
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const users = {
      admin: `adm_${suffix}`,
      runtime: `rt_${suffix}`,
      migration: `mg_${suffix}`,
      replica: `rp_${suffix}`,
    };
    const urls: Record<string, string> = {};
    let shopA: string;
    let shopB: string;
    let round = 0;

    const run = async (url: string, argv: string[], stdin = ''): Promise<Run> => {
      const err: string[] = [];
      const code = await runBackofficeAdmin(
        argv,
        { out: () => undefined, err: (t) => err.push(t), readStdin: async () => stdin },
        { APP_ENV: 'development', DATA_DIR: ctx.db.dataDir, DATABASE_URL: url },
      );
      return { argv, code, err: err.join('\n') };
    };

    /** Every command of the admin command, on a new user and role. */
    const everyCommand = async (url: string): Promise<Run[]> => {
      const user = `admin-probe-${suffix}-${++round}`;
      const role = `Role${suffix}${round}`;
      await ctx.db.db.query(
        "INSERT INTO api_login_failures (username_key, client_key, failure_count, first_failure_at_ms) VALUES (?, '', 1, 0)",
        [user],
      );
      return [
        await run(url, ['create-role', role]),
        await run(
          url,
          ['create-user', user, '--password-stdin', '--role', 'ApiUser', '--shop', shopA],
          PASSPHRASE,
        ),
        await run(url, ['revoke-role', user, 'ApiUser']),
        await run(url, ['grant-role', user, 'ApiUser']),
        await run(url, ['grant-shop', user, shopB]),
        await run(url, ['revoke-shop', user, shopB]),
        await run(url, ['disable', user]),
        await run(url, ['enable', user]),
        await run(url, ['show', user]),
        await run(url, ['list']),
        await run(url, ['list-shops']),
        await run(url, ['unlock', user]),
        await run(url, ['revoke-tokens', '--user', user]),
      ];
    };

    beforeAll(async () => {
      shopA = await createShop(ctx.db.db);
      shopB = await createShop(ctx.db.db);
      await ctx.db.db.query("INSERT IGNORE INTO bo_roles (name) VALUES ('ApiUser')");
      const server = new URL(ctx.db.databaseUrl as string);
      const database = server.pathname.slice(1);
      server.pathname = '/';
      for (const kind of ['admin', 'runtime', 'migration', 'replica'] as const) {
        urls[kind] = await grantAppDatabaseAccount(
          server,
          database,
          { user: users[kind], password },
          kind,
        );
      }
    });
    afterAll(async () => {
      await ctx.db.db.query(
        `DROP USER IF EXISTS ${Object.values(users)
          .map((u) => `'${u}'@'%'`)
          .join(', ')}`,
      );
    });

    it('should run every command', async () => {
      const runs = await everyCommand(urls.admin);
      expect(runs.filter((r) => r.code !== 0)).toEqual([]);
    });

    it('should need every grant of the script: without any one, a command fails naming it', async () => {
      const grants = scriptGrants();
      expect(grants.length).toBe(18);
      // MySQL 8 checks the SELECT of the column an UPDATE's WHERE reads; MariaDB, on a view, not.
      const mysqlOnly = (table: string, privilege: string) =>
        table === 'admin_api_users' && privilege === 'SELECT (id)';
      for (const [table, privilege] of grants) {
        if (mysqlOnly(table, privilege)) continue;
        await ctx.db.db.query(`REVOKE ${privilege} ON ${table} FROM '${users.admin}'@'%'`);
        try {
          const failed = (await everyCommand(urls.admin)).filter((r) => r.code !== 0);
          const command = privilege.split(' ')[0];
          expect([table, privilege, failed[0]?.code, failed[0]?.err]).toEqual([
            table,
            privilege,
            4,
            expect.stringMatching(
              new RegExp(
                `^The database account lacks ${command} on ${table}\\b.*\\(MySQL error 114[23], ` +
                  'ER_(TABLE|COLUMN)ACCESS_DENIED_ERROR\\): run the admin command as the account of sql/admin-account.sql',
              ),
            ),
          ]);
        } finally {
          await ctx.db.db.query(`GRANT ${privilege} ON ${table} TO '${users.admin}'@'%'`);
        }
      }
    });

    /** A connection as one of the accounts, and the statements the database refuses it. */
    const connect = async (url: string): Promise<DataSource> => {
      const db = new DataSource({ type: 'mysql', url });
      await db.initialize();
      return db;
    };
    const DENIED = { code: expect.stringMatching(/_DENIED_ERROR$/) };

    describe('the admin account, at the database [issue 54]', () => {
      let account: DataSource;
      let administrator: { id: string; username: string };
      beforeAll(async () => {
        account = await connect(urls.admin);
        administrator = await createUser(ctx.db.db, {
          username: `boss-${suffix}`,
          roles: ['Administrator', 'ApiUser'],
        });
      });
      afterAll(() => account?.destroy());

      const adminRow = async () =>
        (
          await ctx.db.db.query<
            Array<{ username: string; password_hash: string; is_enabled: number }>
          >('SELECT username, password_hash, is_enabled FROM bo_users WHERE id = ?', [
            administrator.id,
          ])
        )[0];

      it('should refuse reading a password hash, changing one, and renaming a user', async () => {
        const before = await adminRow();
        for (const sql of [
          'SELECT password_hash FROM bo_users',
          'SELECT * FROM bo_users',
          `UPDATE bo_users SET password_hash = 'x' WHERE id = ${administrator.id}`,
          `UPDATE bo_users SET username = 'someone-else' WHERE id = ${administrator.id}`,
          `UPDATE bo_users SET is_enabled = 0 WHERE id = ${administrator.id}`,
          `UPDATE admin_api_users SET password_hash = 'x' WHERE id = ${administrator.id}`,
          `INSERT INTO bo_users (username, password_hash) VALUES ('${administrator.username}', 'x') ON DUPLICATE KEY UPDATE password_hash = 'x'`,
          `REPLACE INTO bo_users (id, username, password_hash) VALUES (${administrator.id}, 'x', 'x')`,
          `DELETE FROM bo_users WHERE id = ${administrator.id}`,
        ]) {
          const refusal: unknown = await account
            .query(sql)
            .then(() => 'accepted')
            .catch((e: { driverError?: unknown }) => e.driverError);
          expect([sql, refusal]).toEqual([sql, expect.objectContaining(DENIED)]);
        }
        expect(await adminRow()).toEqual(before);
      });

      it('should refuse granting Administrator, and revoking or enabling past ApiUser', async () => {
        const [{ id: adminRole }] = await ctx.db.db.query<Array<{ id: number }>>(
          "SELECT id FROM bo_roles WHERE name = 'Administrator'",
        );
        const probe = await createUser(ctx.db.db, { roles: ['ApiUser'] });
        await expect(
          account.query('INSERT INTO bo_user_roles (user_id, role_id) VALUES (?, ?)', [
            probe.id,
            adminRole,
          ]),
        ).rejects.toMatchObject({ driverError: DENIED });
        await expect(
          account.query('INSERT INTO admin_api_user_roles (user_id, role_id) VALUES (?, ?)', [
            probe.id,
            adminRole,
          ]),
        ).rejects.toMatchObject({ driverError: { code: 'ER_VIEW_CHECK_FAILED' } });
        // Rows outside the views are out of reach: nothing changes.
        await account.query('DELETE FROM admin_api_user_roles WHERE user_id = ? AND role_id = ?', [
          administrator.id,
          adminRole,
        ]);
        await account.query('UPDATE admin_api_users SET is_enabled = 0 WHERE id = ?', [
          administrator.id,
        ]);
        expect((await adminRow()).is_enabled).toBe(1);
        const roles = await ctx.db.db.query<Array<{ n: number }>>(
          'SELECT COUNT(*) AS n FROM bo_user_roles WHERE user_id = ?',
          [administrator.id],
        );
        expect(Number(roles[0].n)).toBe(2);
        const probeRoles = await ctx.db.db.query<unknown[]>(
          'SELECT 1 FROM bo_user_roles WHERE user_id = ? AND role_id = ?',
          [probe.id, adminRole],
        );
        expect(probeRoles).toEqual([]);
      });

      it("should refuse the command's own Administrator grants and an Administrator's disabling (exit 3)", async () => {
        const probe = `cmd-probe-${suffix}`;
        expect(
          (await run(urls.admin, ['create-user', probe, '--password-stdin'], PASSPHRASE)).code,
        ).toBe(0);
        const refusal = {
          code: 3,
          err: expect.stringMatching(
            /^The database lets this account grant and revoke the ApiUser role only/,
          ),
        };
        expect(await run(urls.admin, ['grant-role', probe, 'Administrator'])).toMatchObject(
          refusal,
        );
        expect(
          await run(
            urls.admin,
            ['create-user', `${probe}-2`, '--password-stdin', '--role', 'Administrator'],
            PASSPHRASE,
          ),
        ).toMatchObject(refusal);
        expect(await run(urls.admin, ['show', `${probe}-2`])).toMatchObject({ code: 2 });
        expect(
          await run(urls.admin, ['revoke-role', administrator.username, 'Administrator']),
        ).toMatchObject(refusal);
        for (const command of ['disable', 'enable']) {
          await ctx.db.db.query('UPDATE bo_users SET is_enabled = ? WHERE id = ?', [
            command === 'enable' ? 0 : 1,
            administrator.id,
          ]);
          expect(await run(urls.admin, [command, administrator.username])).toMatchObject({
            code: 3,
            err: expect.stringMatching(
              /enable and disable only users who hold no role but ApiUser/,
            ),
          });
          expect((await adminRow()).is_enabled).toBe(command === 'enable' ? 0 : 1);
        }
        await ctx.db.db.query('UPDATE bo_users SET is_enabled = 1 WHERE id = ?', [
          administrator.id,
        ]);
      });
    });

    it('should let the replica account read every column of bo_users but password_hash [issue 54]', async () => {
      const replica = await connect(urls.replica);
      try {
        await expect(
          replica.query('SELECT id, username, is_enabled FROM bo_users'),
        ).resolves.toBeInstanceOf(Array);
        await expect(replica.query('SELECT COUNT(*) AS n FROM pos_sales')).resolves.toHaveLength(1);
        for (const sql of [
          'SELECT password_hash FROM bo_users',
          'SELECT * FROM bo_users',
          "UPDATE bo_users SET password_hash = 'x'",
          "UPDATE bo_users SET username = 'x'",
          'INSERT INTO bo_user_roles (user_id, role_id) VALUES (1, 1)',
        ]) {
          await expect(replica.query(sql)).rejects.toMatchObject({ driverError: DENIED });
        }
      } finally {
        await replica.destroy();
      }
    });

    it.each(['', 'short-secret', null])(
      'should refuse to create any account with the password %p [issue 54]',
      async (password) => {
        for (const kind of Object.keys(ACCOUNT_SCRIPTS) as AccountKind[]) {
          const user = `nopw_${suffix}`;
          const server = new URL(ctx.db.databaseUrl as string);
          const database = server.pathname.slice(1);
          server.pathname = '/';
          await expect(
            grantAppDatabaseAccount(server, database, { user, password: password as string }, kind),
          ).rejects.toThrow(/to 16 characters or more/);
          const found = await ctx.db.db.query<unknown[]>(
            'SELECT 1 FROM mysql.user WHERE User = ?',
            [user],
          );
          expect([kind, found]).toEqual([kind, []]);
        }
      },
    );

    requires(program('mariadb', 'apt-get install mariadb-client')).it(
      'should run each script by the line it documents, with the real client, and stop on a short password [issue 54]',
      async () => {
        const server = new URL(ctx.db.databaseUrl as string);
        const database = server.pathname.slice(1);
        const dir = mkdtempSync(path.join(tmpdir(), 'account-scripts-'));
        const connection = [
          `-h${server.hostname}`,
          `-P${server.port || 3306}`,
          `-u${decodeURIComponent(server.username)}`,
          ...(server.password ? [`-p${decodeURIComponent(server.password)}`] : []),
        ];
        try {
          for (const file of [
            'admin-account.sql',
            'binlog-account.sql',
            'least-privilege-replica.sql',
            'least-privilege.sql',
            'migration-account.sql',
          ]) {
            const text = readFileSync(path.join(__dirname, '../../sql', file), 'utf8');
            const line = /^-- {3}(mariadb -uroot backoffice (.*) < (sql\/[\w.-]+))$/m.exec(text);
            expect([file, line?.[3]]).toEqual([file, `sql/${file}`]);
            const [, printed, options] = line as RegExpExecArray;
            const password = /^--init-command="SET @\w+_password = '([^']+)'"$/.exec(options)?.[1];
            expect([file, password?.length]).toEqual([file, expect.any(Number)]);
            // The printed line through a shell, with this server, this database and a throw-away
            // account name in place of the script's.
            const account = /CREATE USER IF NOT EXISTS ''(\w+)''/.exec(text)?.[1] as string;
            const renamed = `ln_${suffix}`;
            const script = path.join(dir, file);
            writeFileSync(script, text.replace(new RegExp(`\\b${account}(?=')`, 'g'), renamed));
            const local = printed
              .replace('mariadb -uroot backoffice', `mariadb ${connection.join(' ')} ${database}`)
              .replace(`< sql/${file}`, `< ${script}`);
            const client = (command: string) => execSync(command, { stdio: 'pipe' });
            try {
              expect(() => client(local.replace(`'${password}'`, "'short'"))).toThrow(
                /16 characters or more/,
              );
              expect(
                await ctx.db.db.query('SELECT 1 FROM mysql.user WHERE User = ?', [renamed]),
              ).toEqual([]);
              client(local);
              expect(
                await ctx.db.db.query('SELECT 1 FROM mysql.user WHERE User = ?', [renamed]),
              ).toHaveLength(1);
            } finally {
              await ctx.db.db.query(`DROP USER IF EXISTS '${renamed}'@'%'`);
            }
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );

    it("should name the grant the service's runtime account lacks (INSERT on bo_users), not a missing table", async () => {
      const created = await run(
        urls.runtime,
        ['create-user', `rt-probe-${suffix}`, '--password-stdin'],
        PASSPHRASE,
      );
      expect(created).toMatchObject({
        code: 4,
        err: expect.stringMatching(
          /^The database account lacks INSERT on bo_users \(MySQL error 1142/,
        ),
      });
    });

    it('should name the grant the migration account lacks (SELECT on bo_users), not "tables missing"', async () => {
      const listed = await run(urls.migration, ['list']);
      expect(listed.code).toBe(4);
      expect(listed.err).toMatch(
        /^The database account lacks SELECT on bo_users \(MySQL error 1142/,
      );
      expect(listed.err).not.toMatch(/missing/);
    });
  });
});
