import type { Source } from '../catalogue/source';
import type { BusinessDates } from '../common/query/filter-parameters';
import type { SqlReader } from '../database/sql-reader';
import type { ShopScope } from './shop-scope';
import { attachRows, readAttached } from './sql/attached-reader';
import { inBusinessDates, readBusinessDateRange, type TimeRange } from './sql/business-date-range';
import type { KeysetBounds } from './sql/keyset-query';
import { type KeysetPosition, type KeysetSlice, readKeyset } from './sql/keyset-reader';
import { readSessionDates } from './sql/session-dates';
import { readSessions } from './sql/session-reader';
import type { ReadSource, ScopedRead } from './wall';

export type { KeysetPosition } from './sql/keyset-reader';
export type { TimeRange } from './sql/business-date-range';

/**
 * A list page: a period of one shop or of all the caller's, in (time, id) order. By business
 * date (`businessDates`), `from` and `to` are the walk's time range: null on the first page,
 * which finds it (sql/business-date-range.ts), then the one the cursor carries.
 */
export interface PageQuery extends KeysetBounds {
  shopCode: string | null;
}

/** A list read: its rows, where the next starts, and the time range it walked (the cursor's). */
export interface ListSlice<R> extends KeysetSlice<R> {
  range: TimeRange | null;
}

/** Keyset reads a page by business date may make before it answers short (nextCursor set). */
const MAX_FILTERED_READS = 8;

/**
 * A page by business date: keyset reads within the walk's time range, each row kept only if
 * its business date is in the dates (a session date is known after the read), until the page
 * is full or the range ends. A page may be short, even empty, with a next cursor: the rows of
 * the range that are of other dates (past midnight, other registers) were skipped.
 */
async function readByBusinessDate<R>(
  source: Source<R>,
  scope: readonly string[],
  query: PageQuery & { businessDates: BusinessDates },
  db: SqlReader,
): Promise<ListSlice<R>> {
  // A first page finds the range; a later one (and the day close's walks) carries it in `from`.
  let range: TimeRange | null = query.from === null ? null : { from: query.from, to: query.to };
  if (range === null) range = await readBusinessDateRange(source, scope, query.businessDates, db);
  if (range === null) return { rows: [], next: null, range: null };
  const rows: R[] = [];
  let after = query.after;
  for (let reads = 0; reads < MAX_FILTERED_READS; reads++) {
    const need = query.limit - rows.length;
    const slice = await readKeyset(source, scope, { ...query, ...range, after, limit: need }, db);
    await readSessionDates(source, slice.rows as object[], db);
    const kept = slice.rows.filter((row) =>
      inBusinessDates(source, row as object, query.businessDates),
    );
    rows.push(...kept);
    // All kept: the slice's last row is the page's, and where the next page starts.
    if (rows.length === query.limit || slice.next === null)
      return { rows, next: slice.next, range };
    after = slice.next;
  }
  return { rows, next: after, range };
}

/**
 * The list's read (sync/list/list.mode.ts): a period in (time, id) order, by the keyset read
 * (sql/keyset-reader.ts) on one reader of any replica, or by business date (a walk of their time
 * range); then the rows' drawer sessions and what the source attaches.
 */
export const LIST_READ: ScopedRead<
  PageQuery,
  { next: KeysetPosition | null; range: TimeRange | null }
> = {
  async read<R extends { id: string }>(
    source: Source<R>,
    scope: ShopScope,
    query: PageQuery,
    reads: ReadSource,
  ) {
    const db = reads.reader();
    const { businessDates } = query;
    const { rows, next, range } = businessDates
      ? await readByBusinessDate(source, scope, { ...query, businessDates }, db)
      : { ...(await readKeyset(source, scope, query, db)), range: null };
    await readSessions(source, rows, db);
    // By business date the rows' session dates were read to filter them.
    const attach = businessDates ? attachRows : readAttached;
    return { rows: await attach(source, rows, db), next, range };
  },
};
