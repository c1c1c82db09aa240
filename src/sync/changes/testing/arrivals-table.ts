import type { PrimaryReader } from '../../../database/replicas/read-router';
import type { Row } from '../../../database/sql-reader';
import { loadSqliteDriver } from '../../../database/sqlite-driver';

/** What these specs use of better-sqlite3's Database (the package ships no types). */
interface Sqlite {
  exec(sql: string): void;
  prepare(sql: string): { all(...params: unknown[]): unknown[]; run(...params: unknown[]): void };
}

/** better-sqlite3, the release for the running Node (database/sqlite-driver.ts). */
const Database = loadSqliteDriver() as new (file: string) => Sqlite;

/**
 * Specs only: a table of the back office (`id`, `shop_code`) in an in-memory SQLite, the embedded
 * database the service runs on, behind a primary the waiting feeds poll: the real poll statement
 * runs on it. `readMs` makes each statement take that long (fake timers); `state.down` makes them
 * fail, as a lost connection does. Records every statement.
 */
export function arrivalsTable(table: string, readMs = 0) {
  const sqlite = new Database(':memory:');
  sqlite.exec(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, shop_code TEXT NOT NULL)`);
  const statements: Array<{ sql: string; params: unknown[] }> = [];
  const state = { down: false };
  const reader: PrimaryReader = {
    uncommitted: null,
    query: async (sql, params) => {
      statements.push({ sql, params });
      if (readMs > 0) await new Promise((resolve) => setTimeout(resolve, readMs));
      if (state.down) throw new Error('connection lost');
      return sqlite.prepare(sql).all(...params) as Row[];
    },
  };
  const insert = (shop: string, id: number) => {
    sqlite.prepare(`INSERT INTO ${table} (id, shop_code) VALUES (?, ?)`).run(id, shop);
  };
  /** ReadRouter.withPrimary over this table. */
  const withPrimary = <T>(work: (db: PrimaryReader) => Promise<T>): Promise<T> => work(reader);
  return { reader, withPrimary, statements, insert, state };
}
