import { randomBytes } from 'node:crypto';
import { runBackofficeAdmin } from '../../tools/backoffice-admin/backoffice-admin';
import { adminAccountScript, grantAppDatabaseAccount } from '../support/app-database-account';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';

jest.setTimeout(120_000);

const PASSPHRASE = 'a long enough passphrase for the admin';

interface Run {
  argv: string[];
  code: number;
  err: string;
}

/** GRANT lines of sql/admin-account.sql: [table, privilege] pairs. */
function scriptGrants(): Array<[string, string]> {
  return [...adminAccountScript('pos_api_admin').matchAll(/^GRANT (.+) ON (\S+) TO /gm)].flatMap(
    ([, privileges, table]) =>
      privileges.split(', ').map((privilege): [string, string] => [table, privilege]),
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
    const users = { admin: `adm_${suffix}`, runtime: `rt_${suffix}`, migration: `mg_${suffix}` };
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
          ['create-user', user, '--password-stdin', '--role', role, '--shop', shopA],
          PASSPHRASE,
        ),
        await run(url, ['grant-role', user, 'ApiUser']),
        await run(url, ['revoke-role', user, role]),
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
      for (const kind of ['admin', 'runtime', 'migration'] as const) {
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
        `DROP USER IF EXISTS '${users.admin}'@'%', '${users.runtime}'@'%', '${users.migration}'@'%'`,
      );
    });

    it('should run every command', async () => {
      const runs = await everyCommand(urls.admin);
      expect(runs.filter((r) => r.code !== 0)).toEqual([]);
    });

    it('should need every grant of the script: without any one, a command fails naming it', async () => {
      const grants = scriptGrants();
      expect(grants.length).toBe(16);
      for (const [table, privilege] of grants) {
        await ctx.db.db.query(`REVOKE ${privilege} ON ${table} FROM '${users.admin}'@'%'`);
        try {
          const failed = (await everyCommand(urls.admin)).filter((r) => r.code !== 0);
          expect([table, privilege, failed[0]?.code, failed[0]?.err]).toEqual([
            table,
            privilege,
            4,
            expect.stringContaining(
              `The database account lacks ${privilege} on ${table} (MySQL error 1142, ER_TABLEACCESS_DENIED_ERROR): ` +
                'run the admin command as the account of sql/admin-account.sql',
            ),
          ]);
        } finally {
          await ctx.db.db.query(`GRANT ${privilege} ON ${table} TO '${users.admin}'@'%'`);
        }
      }
    });

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
