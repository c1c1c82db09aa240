import { annotate } from '../../common/tracing/spans';
import type { Row, SqlReader } from '../../database/sql-reader';
import type { Source } from '../../catalogue/source';
import { buildKeysetQuery, KeysetBounds } from './keyset-query';
import { typedRows } from './typed-rows';

/** Where a keyset read stopped: the stored date-time and id of the last row it returned. */
export type KeysetPosition = NonNullable<KeysetBounds['after']>;

/** Rows of one keyset read, in (time, id) order, and where the next read starts (null: no more). */
export interface KeysetSlice<R> {
  rows: R[];
  next: KeysetPosition | null;
}

/**
 * The one keyset read, for the pages of the list endpoints and the report's chunks: `limit + 1`
 * rows of the shops in (time, id) order after the bounds' position, the extra row dropped and
 * turned into the position the next read starts from. No shop, or From equal to To (an empty
 * half-open period), answers an empty slice without a query.
 *
 * Inside the wall: it takes a list of shops, so only the Wall calls it (through the list
 * mode), with the shops of the caller's claims.
 */
export async function readKeyset<R>(
  source: Source<R>,
  shops: readonly string[],
  bounds: KeysetBounds,
  db: SqlReader,
): Promise<KeysetSlice<R>> {
  if (shops.length === 0 || (bounds.from !== null && bounds.from === bounds.to)) {
    return { rows: [], next: null };
  }
  annotate({ 'pos_api.page_size': bounds.limit });
  const { sql, params } = buildKeysetQuery(source, shops, bounds);
  const rows: Row[] = await db.query(sql, params);
  const hasMore = rows.length > bounds.limit;
  if (hasMore) rows.length = bounds.limit;
  const last = rows[rows.length - 1];
  return {
    rows: typedRows(source, rows),
    next: hasMore ? { time: String(last.k_t), id: String(last.k_id) } : null,
  };
}
