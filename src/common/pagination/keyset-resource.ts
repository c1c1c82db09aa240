/** A value as the drivers return it (mysql2 with strings for DATETIME, DECIMAL, BIGINT; better-sqlite3). */
export type SqlValue = string | number | bigint | null;
export type Row = Record<string, SqlValue>;

/** What a resource needs to read child rows: TypeORM's DataSource, or any parameterised reader. */
export interface SqlReader {
  query(sql: string, params: unknown[]): Promise<Row[]>;
}

/**
 * What a cursor-paginated resource contributes to the shared mechanism: its table, its
 * shop-local date-time column (indexed as (shop_code, column, id)), its columns and its mapping.
 */
export interface KeysetResource<T> {
  /** Name of the resource, as in the URL (bound into its cursors). */
  name: string;
  table: string;
  timeColumn: string;
  /** Select list over the table aliased `x` (the mechanism adds the keyset columns). */
  select: string;
  toRecord(row: Row): T;
  /** Adds child rows (the lines of sales) to a page with one query for the whole page. */
  attachChildren?(records: T[], db: SqlReader): Promise<void>;
}

/** The page envelope of the three cursor endpoints. */
export interface Page<T> {
  data: T[];
  /** Pass as Cursor to read the next page; null on the last page. */
  nextCursor: string | null;
}
