import { Injectable } from '@nestjs/common';
import type { CallerClaims } from '../../auth/caller';
import { ReadRouter } from '../../database/replicas/read-router';
import { shopsInScope } from '../shop-scope';
import { CursorCodec } from './cursor-codec';
import { buildKeysetQuery } from './keyset-query';
import { KeysetResource, Page, Row, SqlReader } from './keyset-resource';
import { parsePageQuery } from './page-query';
import { RawQuery } from './query-parameters';

/**
 * One page of a cursor-paginated resource: parse the query (and cursor), scope it to the
 * caller's shops, run the keyset query for `limit + 1` rows, map them and sign the next cursor.
 * Framework-free, so the benchmark's raw baseline runs exactly this too.
 */
export async function readKeysetPage<T>(
  resource: KeysetResource<T>,
  caller: CallerClaims,
  raw: RawQuery,
  db: SqlReader,
  cursors: CursorCodec,
): Promise<Page<T>> {
  const query = parsePageQuery(raw, resource.name, caller, cursors);
  const shops = shopsInScope(caller, query.shopCode ?? undefined);
  if (shops.length === 0 || (query.from !== null && query.from === query.to)) {
    return { data: [], nextCursor: null };
  }
  const { sql, params } = buildKeysetQuery(resource, shops, query);
  const rows: Row[] = await db.query(sql, params);
  const hasMore = rows.length > query.limit;
  if (hasMore) rows.length = query.limit;
  const data = rows.map((row) => resource.toRecord(row));
  if (resource.attachChildren && data.length > 0) await resource.attachChildren(data, db);
  const last = rows[rows.length - 1];
  const nextCursor = hasMore
    ? cursors.encode({
        resource: resource.name,
        subject: caller.userId,
        shopCode: query.shopCode,
        from: query.from,
        to: query.to,
        afterTime: String(last.k_t),
        afterId: String(last.k_id),
      })
    : null;
  return { data, nextCursor };
}

/** The one pagination mechanism of sales, payments and cash movements. */
@Injectable()
export class KeysetPaginator {
  constructor(
    private readonly reads: ReadRouter,
    private readonly cursors: CursorCodec,
  ) {}

  page<T>(resource: KeysetResource<T>, caller: CallerClaims, raw: RawQuery): Promise<Page<T>> {
    // One reader for the page and its lines: both from the same replica (or the primary).
    return readKeysetPage(resource, caller, raw, this.reads.reader(), this.cursors);
  }
}
