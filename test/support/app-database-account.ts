import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { splitSqlStatements } from '../../src/database/backoffice-schema';

/** The script that creates the service's least-privilege MySQL account (docs/operations.md). */
export const LEAST_PRIVILEGE_SCRIPT = path.join(__dirname, '../../sql/least-privilege.sql');

export interface AppDatabaseAccount {
  user: string;
  password: string;
}

/**
 * The account the app under test connects with on MariaDB: set TEST_APP_DATABASE_PASSWORD (and
 * optionally TEST_APP_DATABASE_USER, default pos_api) and every test database grants it exactly
 * what sql/least-privilege.sql grants, so the suite proves the service never needs more (CI does).
 * Unset: the app connects as TEST_DATABASE_URL's user, like the test's own factories.
 */
export function appDatabaseAccount(): AppDatabaseAccount | undefined {
  const password = process.env.TEST_APP_DATABASE_PASSWORD;
  if (!password) return undefined;
  return { user: process.env.TEST_APP_DATABASE_USER || 'pos_api', password };
}

/** The least-privilege script for another account name. */
export function leastPrivilegeScript(user: string): string {
  // 'pos_api'@'%' in the GRANTs, ''pos_api''@''%'' inside the CREATE USER string.
  return readFileSync(LEAST_PRIVILEGE_SCRIPT, 'utf8').replace(/\bpos_api(?=')/g, user);
}

/** Runs the script on `database` (as the server URL's administrator); returns the app's URL. */
export async function grantAppDatabaseAccount(
  serverUrl: URL,
  database: string,
  account: AppDatabaseAccount,
): Promise<string> {
  const admin = new DataSource({ type: 'mysql', url: serverUrl.toString() });
  await admin.initialize();
  const runner = admin.createQueryRunner();
  try {
    await runner.query(`USE \`${database}\``);
    await runner.query('SET @api_password = ?', [account.password]);
    for (const statement of splitSqlStatements(leastPrivilegeScript(account.user))) {
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

/** Table grants outlive DROP DATABASE in MySQL: remove those of a dropped test database. */
export async function forgetAppDatabaseGrants(admin: DataSource, database: string): Promise<void> {
  await admin.query('DELETE FROM mysql.tables_priv WHERE Db = ?', [database]);
  await admin.query('FLUSH PRIVILEGES');
}
