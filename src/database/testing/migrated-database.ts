import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, DatabaseKind } from '../data-source.options';

/** A database with the service's own tables (its real migrations) and no rows, for unit specs. */
export interface MigratedDatabase {
  db: DataSource;
  close(): Promise<void>;
}

/**
 * The kinds a unit spec of SQL runs on: SQLite in memory always; MariaDB too when
 * TEST_DATABASE_URL names a server (`.ci/run` sets it). Without it, the MariaDB variant is
 * skipped and says how to run it; with CI=true it fails instead (CI runs everything).
 */
export function databaseKinds(): Array<{
  kind: DatabaseKind;
  describe: jest.Describe;
  open: () => Promise<MigratedDatabase>;
}> {
  const server = process.env.TEST_DATABASE_URL;
  const ci = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());
  const mariadb = server
    ? describe
    : ci
      ? (title: string) =>
          describe(title, () => {
            it('needs TEST_DATABASE_URL (CI runs every variant)', () => {
              throw new Error('TEST_DATABASE_URL is not set, and CI=true');
            });
          })
      : (title: string, body: () => void) =>
          describe.skip(
            `${title} (skipped: TEST_DATABASE_URL is not set; apt-get install mariadb-server, ` +
              'then TEST_DATABASE_URL=mysql://root@127.0.0.1:3306/)',
            body,
          );
  return [
    { kind: 'sqlite', describe, open: openSqlite },
    {
      kind: 'mysql',
      describe: mariadb as jest.Describe,
      open: () => openMariadb(server as string),
    },
  ];
}

async function openSqlite(): Promise<MigratedDatabase> {
  const options = buildDataSourceOptions({ dataDir: '' });
  if (options.type !== 'better-sqlite3') throw new Error('expected the embedded SQLite');
  const db = new DataSource({ ...options, database: ':memory:' });
  await db.initialize();
  await db.runMigrations();
  return { db, close: () => db.destroy() };
}

/** A fresh database of its own on the server, dropped by close(). */
async function openMariadb(serverUrl: string): Promise<MigratedDatabase> {
  const name = `posapi_unit_${randomBytes(5).toString('hex')}`;
  const server = new URL(serverUrl);
  server.pathname = '/';
  const admin = new DataSource({ type: 'mysql', url: server.toString() });
  await admin.initialize();
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  server.pathname = `/${name}`;
  const db = new DataSource(
    buildDataSourceOptions({ databaseUrl: server.toString(), dataDir: '' }),
  );
  try {
    await db.initialize();
    await db.runMigrations();
  } catch (error) {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.destroy();
    throw error;
  }
  return {
    db,
    close: async () => {
      await db.destroy();
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.destroy();
    },
  };
}
