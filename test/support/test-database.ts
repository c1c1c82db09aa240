import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { applyBackofficeSchema } from '../../src/database/backoffice-schema';
import { buildDataSourceOptions, DatabaseKind } from '../../src/database/data-source.options';
import {
  appDatabaseAccount,
  forgetAppDatabaseGrants,
  grantAppDatabaseAccount,
} from './app-database-account';

/** A fresh database for one spec file: the back-office tables, the service's migrations, no rows. */
export interface TestDatabase {
  kind: DatabaseKind;
  /** DATABASE_URL of the database's administrator (undefined: embedded SQLite in dataDir). */
  databaseUrl?: string;
  /** DATABASE_URL the app under test uses: the least-privilege account when configured. */
  appDatabaseUrl?: string;
  dataDir: string;
  /** A connection of the test's own, for factories and assertions. */
  db: DataSource;
  drop(): Promise<void>;
}

function serverUrl(): URL {
  const url = new URL(process.env.TEST_DATABASE_URL as string);
  url.pathname = '/';
  return url;
}

/** MariaDB: the database's default character set and collation (the back-office's by default). */
const BACKOFFICE_DEFAULT_CHARSET = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci';

export async function createTestDatabase(
  kind: DatabaseKind,
  mysqlDefaultCharset = BACKOFFICE_DEFAULT_CHARSET,
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pos-api-test-'));
  let databaseUrl: string | undefined;
  let appDatabaseUrl: string | undefined;
  let dropDatabase = async (): Promise<void> => undefined;
  if (kind === 'mysql') {
    const name = `posapi_test_${randomBytes(5).toString('hex')}`;
    const admin = new DataSource({ type: 'mysql', url: serverUrl().toString() });
    await admin.initialize();
    await admin.query(`CREATE DATABASE \`${name}\` ${mysqlDefaultCharset}`);
    await admin.destroy();
    const url = serverUrl();
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const again = new DataSource({ type: 'mysql', url: serverUrl().toString() });
      await again.initialize();
      await again.query(`DROP DATABASE IF EXISTS \`${name}\``);
      if (appDatabaseAccount()) await forgetAppDatabaseGrants(again, name);
      await again.destroy();
    };
  }
  const db = new DataSource(buildDataSourceOptions({ databaseUrl, dataDir }));
  await db.initialize();
  await applyBackofficeSchema(db);
  await db.runMigrations();
  const account = kind === 'mysql' ? appDatabaseAccount() : undefined;
  if (account) {
    const name = new URL(databaseUrl as string).pathname.slice(1);
    appDatabaseUrl = await grantAppDatabaseAccount(serverUrl(), name, account);
  }
  return {
    kind,
    databaseUrl,
    appDatabaseUrl: appDatabaseUrl ?? databaseUrl,
    dataDir,
    db,
    drop: async () => {
      await db.destroy();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
