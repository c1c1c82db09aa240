import { annotate } from '../common/tracing/spans';
import { buildKeysetQuery, KeysetBounds, KeysetSource } from '../common/pagination/keyset-query';
import type { KeysetSlice, Row, SqlReader } from '../common/pagination/keyset-resource';

/**
 * The one keyset read, for the pages of the list endpoints and the report's chunks: `limit + 1`
 * rows of the shops in (time, id) order after the bounds' position, the extra row dropped and
 * turned into the position the next read starts from. No shop, or From equal to To (an empty
 * half-open period), answers an empty slice without a query.
 *
 * Inside the wall: it takes a list of shops, so only ShopScopedReader calls it, with the shops
 * of the caller's claims.
 */
export async function readKeyset<R>(
  source: KeysetSource,
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
    // The drivers' rows are the read models: typed, not copied.
    rows: rows as unknown as R[],
    next: hasMore ? { time: String(last.k_t), id: String(last.k_id) } : null,
  };
}
