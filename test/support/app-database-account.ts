import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { splitSqlStatements } from '../../src/database/backoffice-schema';

/** sql/ of the checkout, from test/support/ or, compiled for the bench, dist-bench/test/support/. */
const SQL = [path.join(__dirname, '../../sql'), path.join(__dirname, '../../../sql')].find((dir) =>
  existsSync(path.join(dir, 'least-privilege.sql')),
)!;
/** The script that creates the service's runtime MySQL account (docs/operations.md). */
const LEAST_PRIVILEGE_SCRIPT = path.join(SQL, 'least-privilege.sql');
/** The script that creates the account the migrations run as. */
const MIGRATION_ACCOUNT_SCRIPT = path.join(SQL, 'migration-account.sql');
/** The script that creates the admin command's account. */
const ADMIN_ACCOUNT_SCRIPT = path.join(SQL, 'admin-account.sql');
/** The script that creates the account the service reads replicas with. */
const REPLICA_ACCOUNT_SCRIPT = path.join(SQL, 'least-privilege-replica.sql');
/** The script that creates the account that follows the binary log. */
const BINLOG_ACCOUNT_SCRIPT = path.join(SQL, 'binlog-account.sql');

export interface AppDatabaseAccount {
  user: string;
  password: string;
}

/**
 * The account the app under test connects with on MariaDB: set TEST_APP_DATABASE_PASSWORD (and
 * optionally TEST_APP_DATABASE_USER, default pos_api) and every test database grants it exactly
 * what sql/least-privilege.sql grants the runtime account, after the migrations (run by the test's
 * administrator), so the suite proves the service never needs more (CI does).
 * Unset: the app connects as TEST_DATABASE_URL's user, like the test's own factories.
 */
export function appDatabaseAccount(): AppDatabaseAccount | undefined {
  const password = process.env.TEST_APP_DATABASE_PASSWORD;
  if (!password) return undefined;
  return { user: process.env.TEST_APP_DATABASE_USER || 'pos_api', password };
}

/** The runtime account's script for another account name. */
export function leastPrivilegeScript(user: string): string {
  // 'pos_api'@'%' in the GRANTs, ''pos_api''@''%'' inside the CREATE USER string.
  return readFileSync(LEAST_PRIVILEGE_SCRIPT, 'utf8').replace(/\bpos_api(?=')/g, user);
}

/** The migration account's script for another account name. */
export function migrationAccountScript(user: string): string {
  return readFileSync(MIGRATION_ACCOUNT_SCRIPT, 'utf8').replace(/\bpos_api_migrate(?=')/g, user);
}

/** The admin command's script for another account name. */
export function adminAccountScript(user: string): string {
  return readFileSync(ADMIN_ACCOUNT_SCRIPT, 'utf8').replace(/\bpos_api_admin(?=')/g, user);
}

/** The replica account's script for another account name. */
export function replicaAccountScript(user: string): string {
  return readFileSync(REPLICA_ACCOUNT_SCRIPT, 'utf8').replace(/\bpos_api_replica(?=')/g, user);
}

/** The binary log's account's script for another account name. */
function binlogAccountScript(user: string): string {
  return readFileSync(BINLOG_ACCOUNT_SCRIPT, 'utf8').replace(/\bpos_api_binlog(?=')/g, user);
}

/** Which script creates an account, and the variable that gives it its password. */
export type AccountKind = 'runtime' | 'migration' | 'admin' | 'replica' | 'binlog';
export const ACCOUNT_SCRIPTS: Record<
  AccountKind,
  { script: (user: string) => string; password: string }
> = {
  runtime: { script: leastPrivilegeScript, password: '@api_password' },
  migration: { script: migrationAccountScript, password: '@migration_password' },
  admin: { script: adminAccountScript, password: '@admin_password' },
  replica: { script: replicaAccountScript, password: '@replica_password' },
  binlog: { script: binlogAccountScript, password: '@binlog_password' },
};

/**
 * Runs the runtime account's script (or the migration account's) on `database`, as the server
 * URL's administrator; returns the URL that connects as that account. The runtime script needs
 * the migrations done (its grants name the api_ tables); the migration script does not.
 */
export async function grantAppDatabaseAccount(
  serverUrl: URL,
  database: string,
  account: AppDatabaseAccount,
  kind: AccountKind = 'runtime',
): Promise<string> {
  const admin = new DataSource({ type: 'mysql', url: serverUrl.toString() });
  await admin.initialize();
  const runner = admin.createQueryRunner();
  const { script, password } = ACCOUNT_SCRIPTS[kind];
  try {
    await runner.query(`USE \`${database}\``);
    await runner.query(`SET ${password} = ?`, [account.password]);
    for (const statement of splitSqlStatements(script(account.user))) {
      await runner.query(statement);
    }
    await runner.query(`ALTER USER '${account.user}'@'%' IDENTIFIED BY ?`, [account.password]);
  } finally {
    await runner.release();
    await admin.destroy();
  }
  const url = new URL(serverUrl.toString());
  url.username = account.user;
  url.password = account.password;
  url.pathname = `/${database}`;
  return url.toString();
}

/** Table and column grants outlive DROP DATABASE in MySQL: remove those of a dropped test database. */
export async function forgetAppDatabaseGrants(admin: DataSource, database: string): Promise<void> {
  await admin.query('DELETE FROM mysql.tables_priv WHERE Db = ?', [database]);
  await admin.query('DELETE FROM mysql.columns_priv WHERE Db = ?', [database]);
  await admin.query('FLUSH PRIVILEGES');
}
