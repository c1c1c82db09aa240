import { annotate, inSpan } from '../../common/tracing/spans';
import type { PrimaryReader } from '../../database/replicas/read-router';
import type { Source } from '../../catalogue/source';
import { selectOf, type SqlQuery } from './keyset-query';
import { typedRows } from './typed-rows';

/** Where a feed page starts and what it may hold. */
export interface FeedQuery {
  shopCode: string | null;
  /** Only rows that arrived at or after this (stored form); null: from the first row. */
  since: string | null;
  /** The id after which the page starts (decimal); null: the beginning. */
  afterId: string | null;
  limit: number;
  /** Seconds to hold the request when it would answer nothing (0: answer at once). */
  wait: number;
}

/** One page of a feed, in id order, and where the next one starts. */
export interface FeedSlice<R> {
  rows: R[];
  /** The id to resume after: the last row's, or the query's own position when none was served. */
  position: string;
  /** Nothing more can be served now: the end of what is committed, or an insert in flight. */
  caughtUp: boolean;
  /** True when an insert in flight stopped the page (it is served once it commits). */
  inFlight?: boolean;
}

/** The conditions of one feed read over the table aliased `alias`, after `afterId`. */
function arrivalRange(source: Source<unknown>, query: FeedQuery, alias: string): SqlQuery {
  const conditions = [`${alias}.id > ?`];
  const params: unknown[] = [BigInt(query.afterId ?? '0')];
  if (query.since !== null && source.arrivedAt) {
    conditions.push(`${alias}.${source.arrivedAt} >= ?`);
    params.push(query.since);
  }
  return { sql: conditions.join(' AND '), params };
}

/**
 * The committed read: `limit + 1` rows of the shops in id order after the position. One shop: a
 * single range, on (shop_code, id) when the recommended index exists. Several shops: each shop's
 * first `limit + 1` ids, merged, then the page's rows by primary key (as the keyset reads do).
 */
function committedQuery(
  source: Source<unknown>,
  shops: readonly string[],
  query: FeedQuery,
): SqlQuery {
  const take = query.limit + 1;
  if (shops.length === 1) {
    const range = arrivalRange(source, query, 'x');
    return {
      sql: `SELECT ${selectOf(source)} FROM ${source.table} x WHERE x.shop_code = ? AND ${range.sql} ORDER BY x.id LIMIT ?`,
      params: [shops[0], ...range.params, take],
    };
  }
  const range = arrivalRange(source, query, 's');
  const members = shops.map(
    (_, i) =>
      `SELECT id FROM (SELECT s.id AS id FROM ${source.table} s WHERE s.shop_code = ? AND ${range.sql} ORDER BY s.id LIMIT ?) m${i}`,
  );
  return {
    sql:
      `SELECT ${selectOf(source)} FROM (${members.join(' UNION ALL ')} ORDER BY id LIMIT ?) p ` +
      `JOIN ${source.table} x ON x.id = p.id ORDER BY x.id`,
    params: [...shops.flatMap((shop) => [shop, ...range.params, take]), take],
  };
}

/** The ids of the shops' rows in (position, last], whatever their transaction's state. */
function rangeQuery(
  source: Source<unknown>,
  shops: readonly string[],
  query: FeedQuery,
  last: string,
): SqlQuery {
  const range = arrivalRange(source, query, 'x');
  return {
    sql:
      `SELECT CAST(x.id AS CHAR) AS id FROM ${source.table} x ` +
      `WHERE x.shop_code IN (${shops.map(() => '?').join(', ')}) AND ${range.sql} AND x.id <= ?`,
    params: [...shops, ...range.params, BigInt(last)],
  };
}

/**
 * The one arrival read of the feeds: rows of the shops in id (arrival) order after the position,
 * never one whose lower neighbour may still commit. Auto-increment ids are taken at insert, not
 * at commit, so a committed read can show id 101 while 100 is in flight. On MySQL/MariaDB the
 * page's id range is read again under READ UNCOMMITTED, after the committed read: an id there
 * but not in the page is an insert in flight (or one committed in between), and the page stops
 * before the lowest such id, so it is served by a later poll once committed. A rolled-back id
 * shows in neither read: gaps never stall the feed. SQLite's single writer never leaves an
 * uncommitted id below a committed one. The argument and its assumption: docs/sync.md.
 *
 * Inside the wall: it takes a list of shops, so only the Wall calls it.
 */
export async function readArrivals<R extends { id: string }>(
  source: Source<R>,
  shops: readonly string[],
  query: FeedQuery,
  db: PrimaryReader,
): Promise<FeedSlice<R>> {
  const start = query.afterId ?? '0';
  if (shops.length === 0) return { rows: [], position: start, caughtUp: true };
  const { sql, params } = committedQuery(source, shops, query);
  const rows = typedRows(source, await db.query(sql, params));
  const hasMore = rows.length > query.limit;
  if (hasMore) rows.length = query.limit;
  if (rows.length === 0) return { rows, position: start, caughtUp: true };
  let caughtUp = !hasMore;
  if (db.uncommitted) {
    const last = rows[rows.length - 1].id;
    const range = rangeQuery(source, shops, query, last);
    const uncommitted = db.uncommitted;
    const seen = await inSpan('feed.second_read', { 'pos_api.db.pool': 'primary' }, () =>
      uncommitted.query(range.sql, range.params),
    );
    const served = new Set(rows.map((row) => row.id));
    const inFlight = seen
      .map((row) => BigInt(String(row.id)))
      .filter((id) => !served.has(String(id)));
    if (inFlight.length > 0) {
      const lowest = inFlight.reduce((a, b) => (b < a ? b : a));
      rows.length = rows.filter((row) => BigInt(row.id) < lowest).length;
      // Nothing more can be served before that insert ends: poll again later.
      caughtUp = true;
      const position = rows.length > 0 ? rows[rows.length - 1].id : start;
      return { rows, position, caughtUp, inFlight: true };
    }
  }
  annotate({ 'pos_api.page_size': query.limit, 'pos_api.caught_up': caughtUp });
  return { rows, position: rows.length > 0 ? rows[rows.length - 1].id : start, caughtUp };
}
