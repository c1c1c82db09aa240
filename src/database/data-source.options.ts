import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import { makeDataDir } from '../config/data-dir';
import * as path from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { DatabaseLogger } from './database-logger';
import { DeadlineSubscriber } from './deadline/deadline.subscriber';
import { CreateLoginFailures1763800000000 } from './migrations/1763800000000-create-login-failures';
import { LoginFailuresByNameAndAddress1764000000000 } from './migrations/1764000000000-login-failures-by-name-and-address';
import { CreateTokenRevocations1764800000000 } from './migrations/1764800000000-create-token-revocations';
import { CreateChangeWatermarks1765000000000 } from './migrations/1765000000000-create-change-watermarks';
import { QueryTimeoutSubscriber } from './query-timeout.subscriber';
import { loadSqliteDriver } from './sqlite-driver';
import { registerSqliteFunctions, type SqliteFunctionRegistry } from './sqlite-functions';

export type DatabaseKind = 'mysql' | 'sqlite';

export interface DatabaseSettings {
  /** mysql://user:pass@host:port/db; absent means the embedded SQLite file. */
  databaseUrl?: string;
  /** Folder of the embedded SQLite file. */
  dataDir: string;
  /** MySQL: connection timeout (default 5 s), per-query timeout (default none), pool size (10). */
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
  poolSize?: number;
}

/** The service's own migrations (tables prefixed api_); the back-office tables are never touched. */
export const MIGRATIONS = [
  CreateLoginFailures1763800000000,
  LoginFailuresByNameAndAddress1764000000000,
  CreateTokenRevocations1764800000000,
  CreateChangeWatermarks1765000000000,
];

export const SQLITE_FILE_NAME = 'pos-api.sqlite';

export function databaseKind(settings: DatabaseSettings): DatabaseKind {
  return settings.databaseUrl ? 'mysql' : 'sqlite';
}

export function sqliteFilePath(dataDir: string): string {
  return path.resolve(dataDir, SQLITE_FILE_NAME);
}

/** The embedded database holds password hashes and business data: its owner's only. */
const SQLITE_FILE_MODE = 0o600;

/**
 * The embedded database's file, created 0600 (and its folder 0700) just before SQLite opens it:
 * SQLite would create it 0644 less the umask, and gives its -wal and -shm files the file's mode.
 * An existing file open to others (made by an earlier version) is made 0600 (issue 44).
 */
function makePrivate(file: string): void {
  makeDataDir(path.dirname(file));
  closeSync(openSync(file, 'a', SQLITE_FILE_MODE));
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, SQLITE_FILE_MODE);
}

/**
 * The SQLite driver whose every open makes its file private first: at the open, not when the
 * options are built, which tools (the OpenAPI generator) do without opening anything.
 */
function privateFileDriver(driver: object): object {
  return new Proxy(driver as new (...args: unknown[]) => object, {
    construct(target, args: [string, ...unknown[]]) {
      if (args[0] !== ':memory:') makePrivate(args[0]);
      return Reflect.construct(target, args);
    },
  });
}

/**
 * One place that turns configuration into TypeORM options, used by the app, the TypeORM CLI
 * (ormconfig.ts), the seed and the tests. `synchronize` is never on: the back-office schema is
 * given, and the service's own tables come from its migrations.
 */
export function buildDataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
  const common = {
    synchronize: false as const,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'api_migrations',
    entities: [],
    subscribers: [QueryTimeoutSubscriber, DeadlineSubscriber],
    logging: false as const,
    logger: new DatabaseLogger(),
  };
  if (settings.databaseUrl) {
    return {
      ...common,
      type: 'mysql',
      url: settings.databaseUrl.replace(/^mariadb:/, 'mysql:'),
      // Read DATETIME, DECIMAL and BIGINT as strings: no zone shift, no float rounding.
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      timezone: 'Z',
      charset: 'utf8mb4_unicode_ci',
      // No request may hang on an unreachable database: connecting and each query are bounded
      // (QueryTimeoutSubscriber destroys a connection whose query timed out; the pool opens anew).
      connectTimeout: settings.connectTimeoutMs ?? 5000,
      ...(settings.queryTimeoutMs
        ? { enableQueryTimeout: true, maxQueryExecutionTime: settings.queryTimeoutMs }
        : {}),
      extra: {
        connectionLimit: settings.poolSize ?? 10,
        enableKeepAlive: true,
        maxIdle: settings.poolSize ?? 10,
        idleTimeout: 60000,
        // The service sends text queries only, never prepared statements (execute), yet mysql2
        // sizes each connection's statement cache for its default of 16,000: four arrays of
        // 16,000 slots, 0.5 MB of heap a connection, allocated when it opens.
        maxPreparedStatements: 16,
      },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    driver: privateFileDriver(loadSqliteDriver() as object),
    database: sqliteFilePath(settings.dataDir),
    prepareDatabase: (db: { pragma(sql: string): unknown } & SqliteFunctionRegistry) => {
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      registerSqliteFunctions(db);
    },
  };
}
