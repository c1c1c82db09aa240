import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { applyBackofficeSchema } from '../../src/database/backoffice-schema';
import { buildDataSourceOptions, MIGRATIONS } from '../../src/database/data-source.options';
import {
  forgetAppDatabaseGrants,
  grantAppDatabaseAccount,
  leastPrivilegeScript,
  migrationAccountScript,
} from '../support/app-database-account';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { startTestApp } from '../support/test-app';

const MIGRATION_PRIVILEGES = 'SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX';
/** The runtime account's grants on the service's own tables: no DDL anywhere. */
const RUNTIME_API_PRIVILEGES: Record<string, string> = {
  api_migrations: 'SELECT',
  api_login_failures: 'SELECT, INSERT, UPDATE, DELETE',
  api_token_revocations: 'SELECT',
  api_change_watermarks: 'SELECT',
};

async function tablesOf(db: DataSource): Promise<string[]> {
  const rows: Array<Record<string, string>> =
    db.options.type === 'mysql'
      ? await db.query(
          'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
        )
      : await db.query(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        );
  return rows.map((r) => r.name).sort();
}

/** GRANT lines of the script to `user`: table → privileges. */
function grantsOf(script: string, user: string): Map<string, string> {
  const grants = new Map<string, string>();
  for (const match of script.matchAll(/^GRANT (.+) ON (\S+) TO '([^']+)'@'%';$/gm)) {
    if (match[3] !== user) continue;
    grants.set(match[2], match[1]);
  }
  return grants;
}

describeEachDatabase(
  'Least privilege: sql/least-privilege.sql (runtime) and sql/migration-account.sql',
  (ctx) => {
    const script = leastPrivilegeScript('pos_api');
    const migrationScript = migrationAccountScript('pos_api_migrate');

    it('should grant the runtime account SELECT on every back-office table, DML without DDL on the api_ tables, nothing else', async () => {
      const tables = await tablesOf(ctx.db.db);
      const grants = grantsOf(script, 'pos_api');
      expect(tables.length).toBeGreaterThanOrEqual(12);
      for (const table of tables) {
        if (/^(bo|pos)_/.test(table)) expect([table, grants.get(table)]).toEqual([table, 'SELECT']);
        else if (table.startsWith('api_'))
          expect([table, grants.get(table)]).toEqual([table, RUNTIME_API_PRIVILEGES[table]]);
        else throw new Error(`table ${table} is neither the back-office's nor the service's`);
      }
      expect([...grants.keys()].sort()).toEqual(tables);
      expect(script).not.toMatch(/ON \*|\.\*| ALL /);
    });

    it('should grant the migration account DDL and DML on every api_ table and nothing on the back-office tables', async () => {
      const apiTables = (await tablesOf(ctx.db.db)).filter((t) => t.startsWith('api_'));
      const grants = grantsOf(migrationScript, 'pos_api_migrate');
      expect([...grants.keys()].sort()).toEqual(apiTables);
      for (const table of apiTables) {
        expect([table, grants.get(table)]).toEqual([table, MIGRATION_PRIVILEGES]);
      }
      expect(migrationScript).not.toMatch(/ON \*|\.\*| ALL /);
    });

    if (ctx.kind === 'mysql') {
      describe('the account it creates [mariadb]', () => {
        const user = `lp_${randomBytes(4).toString('hex')}`;
        const migrationUser = `${user}_migrate`;
        const password = `pw-${randomBytes(8).toString('hex')}`;
        let account: DataSource;
        let accountUrl: string;
        const serverUrl = () => {
          const url = new URL(ctx.db.databaseUrl as string);
          url.pathname = '/';
          return url;
        };
        const denied = async (sql: string) =>
          expect(account.query(sql)).rejects.toMatchObject({
            driverError: { code: expect.stringMatching(/ACCESS_DENIED|_DENIED_ERROR/) },
          });

        beforeAll(async () => {
          const name = new URL(ctx.db.databaseUrl as string).pathname.slice(1);
          accountUrl = await grantAppDatabaseAccount(serverUrl(), name, { user, password });
          account = new DataSource(
            buildDataSourceOptions({ databaseUrl: accountUrl, dataDir: '.' }),
          );
          await account.initialize();
        });
        afterAll(async () => {
          await account?.destroy();
          const admin = ctx.db.db;
          if (accountUrl)
            await forgetAppDatabaseGrants(admin, new URL(accountUrl).pathname.slice(1));
          await admin.query(`DROP USER IF EXISTS '${user}'@'%', '${migrationUser}'@'%'`);
        });

        it('should read every back-office table', async () => {
          for (const table of (await tablesOf(ctx.db.db)).filter((t) => /^(bo|pos)_/.test(t))) {
            await expect(account.query(`SELECT COUNT(*) AS n FROM ${table}`)).resolves.toHaveLength(
              1,
            );
          }
        });

        it('should be refused any write, DDL or new table in the back-office tables', async () => {
          await denied("INSERT INTO bo_roles (name) VALUES ('Intruder')");
          await denied("UPDATE bo_users SET password_hash = 'x'");
          await denied('DELETE FROM bo_user_shops');
          await denied('DROP TABLE pos_sales');
          await denied('ALTER TABLE bo_users ADD COLUMN x INT');
          await denied('CREATE TABLE bo_intruder (id INT)');
          await denied('CREATE TABLE api_not_in_the_script (id INT)');
        });

        it('should be refused any schema change of the api_ tables: migrations are not its job', async () => {
          for (const sql of [
            'ALTER TABLE api_login_failures ADD COLUMN x INT',
            'DROP TABLE api_login_failures',
            'CREATE INDEX intruder ON api_login_failures (failure_count)',
            "INSERT INTO api_migrations (timestamp, name) VALUES (1, 'Intruder1')",
            'DELETE FROM api_migrations',
          ]) {
            await denied(sql);
          }
        });

        it("should read and write the service's own table", async () => {
          const probe = (): Promise<Array<{ failure_count: number }>> =>
            account.query('SELECT failure_count FROM api_login_failures WHERE username_key = ?', [
              'lp-probe',
            ]);
          await account.query(
            "INSERT INTO api_login_failures (username_key, client_key, failure_count, first_failure_at_ms) VALUES (?, '', 1, 0)",
            ['lp-probe'],
          );
          await expect(probe()).resolves.toEqual([{ failure_count: 1 }]);
          await account.query(
            'UPDATE api_login_failures SET failure_count = 2 WHERE username_key = ?',
            ['lp-probe'],
          );
          await expect(probe()).resolves.toEqual([{ failure_count: 2 }]);
          await account.query('DELETE FROM api_login_failures WHERE username_key = ?', [
            'lp-probe',
          ]);
          await expect(probe()).resolves.toEqual([]);
        });

        it("should run the service's migrations as the migration account on a database that has only the back-office tables", async () => {
          const fresh = `posapi_lp_${randomBytes(4).toString('hex')}`;
          await ctx.db.db.query(`CREATE DATABASE \`${fresh}\``);
          const url = new URL(serverUrl().toString());
          url.pathname = `/${fresh}`;
          const admin = new DataSource(
            buildDataSourceOptions({ databaseUrl: url.toString(), dataDir: '.' }),
          );
          await admin.initialize();
          try {
            await applyBackofficeSchema(admin);
            const asAccount = async (url: string, run: (db: DataSource) => Promise<void>) => {
              const db = new DataSource(buildDataSourceOptions({ databaseUrl: url, dataDir: '.' }));
              await db.initialize();
              await run(db).finally(() => db.destroy());
            };
            const migrationUrl = await grantAppDatabaseAccount(
              serverUrl(),
              fresh,
              { user: migrationUser, password },
              'migration',
            );
            await asAccount(migrationUrl, async (migrator) => {
              await expect(migrator.runMigrations()).resolves.toHaveLength(MIGRATIONS.length);
              await expect(migrator.showMigrations()).resolves.toBe(false);
            });
            // After the migrations, the runtime account's grants apply, and it sees none pending.
            const runtimeUrl = await grantAppDatabaseAccount(serverUrl(), fresh, {
              user,
              password,
            });
            await asAccount(runtimeUrl, async (runtime) => {
              await expect(runtime.showMigrations()).resolves.toBe(false);
            });
          } finally {
            await admin.query(`DROP DATABASE \`${fresh}\``);
            await forgetAppDatabaseGrants(admin, fresh);
            await admin.destroy();
          }
        });

        it('should be all the service needs: tokens, failed sign-ins and data calls work as this account', async () => {
          const shop = await createShop(ctx.db.db);
          const user = await createUser(ctx.db.db, { shops: [shop] });
          const api = await startTestApp({ ...ctx.db, appDatabaseUrl: accountUrl });
          try {
            const wrong = await http(api.baseUrl, '/api/v1.0/Token', {
              method: 'POST',
              json: { username: user.username, password: 'wrong' },
            });
            expect(wrong.status).toBe(401);
            const token = await getToken(api.baseUrl, user.username, user.password);
            for (const resource of ['sales', 'payments', 'cash-movements', 'shops']) {
              const res = await http(api.baseUrl, `/api/v1.0/${resource}`, {
                headers: bearer(token),
              });
              expect([resource, res.status]).toEqual([resource, 200]);
            }
          } finally {
            await api.close();
          }
        });
      });
    }
  },
);
