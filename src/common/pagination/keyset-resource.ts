import type { ScopedToCaller } from '../caller-claims';
import type { KeysetBounds } from './keyset-query';
import type { PageQuery } from './page-query';

/** A value as the drivers return it (mysql2 with strings for DATETIME, DECIMAL, BIGINT; better-sqlite3). */
type SqlValue = string | number | bigint | null;
export type Row = Record<string, SqlValue>;

/** What runs SQL for a unit of work: ReadRouter's reader, or any parameterised reader. */
export interface SqlReader {
  query(sql: string, params: unknown[]): Promise<Row[]>;
}

/** Where a keyset read stopped: the stored date-time and id of the last row it returned. */
export type KeysetPosition = NonNullable<KeysetBounds['after']>;

/** Rows of one keyset read, in (time, id) order, and where the next read starts (null: no more). */
export interface KeysetSlice<R> {
  rows: R[];
  next: KeysetPosition | null;
}

/**
 * What a cursor-paginated resource contributes to the shared mechanism: its name (bound into its
 * cursors), how a reader scoped to the caller reads one slice of it, and how a row becomes the
 * record the API returns.
 */
export interface KeysetResource<S extends ScopedToCaller, R, T> {
  /** Name of the resource, as in the URL. */
  name: string;
  read(scoped: S, query: PageQuery): Promise<KeysetSlice<R>>;
  toRecord(row: R): T;
}

/** The page envelope of the three cursor endpoints. */
export interface Page<T> {
  data: T[];
  /** Pass as Cursor to read the next page; null on the last page. */
  nextCursor: string | null;
}
