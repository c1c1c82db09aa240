/** A value as the drivers return it (mysql2 with strings for DATETIME, DECIMAL, BIGINT; better-sqlite3). */
type SqlValue = string | number | bigint | null;
export type Row = Record<string, SqlValue>;

/** What runs SQL for a unit of work: ReadRouter's reader, or any parameterised reader. */
export interface SqlReader {
  query(sql: string, params: unknown[]): Promise<Row[]>;
}
