/** A value as the drivers return it (mysql2 with strings for DATETIME, DECIMAL, BIGINT; better-sqlite3). */
type SqlValue = string | number | bigint | null;
export type Row = Record<string, SqlValue>;

/** The engines' SQL where it differs: MySQL/MariaDB's, or the embedded SQLite's. */
export type SqlDialect = 'mysql' | 'sqlite';

/** What runs SQL for a unit of work: ReadRouter's reader, or any parameterised reader. */
export interface SqlReader {
  query(sql: string, params: unknown[]): Promise<Row[]>;
  /**
   * The engine it runs on, for the few statements whose SQL differs (the day fingerprints'
   * ordered aggregate, wall/sql/day-fingerprint.ts); ReadRouter's readers name it. A reader
   * without it runs the SQL both engines share.
   */
  readonly dialect?: SqlDialect;
}
