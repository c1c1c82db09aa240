import {
  type BusinessDates,
  businessDatesOf,
  checkPeriod,
} from '../../common/pagination/filter-parameters';
import { PAGE_QUERY } from '../../common/pagination/page-query';
import type { SqlReader } from '../../database/sql-reader';
import { MAX_DIGEST_DAYS, MAX_PAGE_LIMIT, MAX_PARAMETER_LENGTH } from '../../config/limits';
import type { Source } from '../source';
import { attachRows, readAttached } from '../sql/attached-reader';
import { inBusinessDates, readBusinessDateRange, type TimeRange } from '../sql/business-date-range';
import { readSessions } from '../sql/session-reader';
import { readSessionDates } from '../sql/session-dates';
import type { KeysetBounds } from '../sql/keyset-query';
import { type KeysetPosition, type KeysetSlice, readKeyset } from '../sql/keyset-reader';
import type { Mode } from './mode';

export type { KeysetPosition } from '../sql/keyset-reader';

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
 * The list mode (GET /sales, /payments, /cash-movements): the records of a period in business
 * time (the source's `time` column, shop-local), oldest first, `{ data, nextCursor }` with
 * nextCursor null on the last page. The keyset read (sql/keyset-reader.ts) from any replica.
 */
export const LIST: Mode<
  PageQuery,
  { next: KeysetPosition | null; range: TimeRange | null },
  { nextCursor: string | null }
> = {
  route: null,
  parameters: () => PAGE_QUERY,
  carried: ['ShopCode', 'From', 'To', 'BusinessDateFrom', 'BusinessDateTo'],
  check: (q) => {
    checkPeriod(q.From, q.To);
    businessDatesOf(q, MAX_DIGEST_DAYS);
  },
  query: ({ filters, after, limit }) => ({
    ...filters,
    businessDates: filters.businessDates ?? null,
    after,
    limit,
  }),
  async read(source, scope, query, reads) {
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
  envelope: (query, { next, range }, cursor) => ({
    nextCursor: next
      ? cursor(
          {
            shopCode: query.shopCode,
            from: range ? range.from : query.from,
            to: range ? range.to : query.to,
            businessDates: query.businessDates,
          },
          next,
        )
      : null,
  }),
  docs: {
    note:
      `\n\nPages hold up to ${MAX_PAGE_LIMIT} records (Limit), ordered by shop-local date-time, then id. ` +
      'Read the next page by passing `nextCursor` as Cursor, until `nextCursor` is null. ' +
      'With BusinessDateFrom and BusinessDateTo instead of From and To: exactly the records ' +
      'whose `businessDate` is in the range, in the same order; such a page may hold fewer ' +
      'records than Limit (even none) while nextCursor is not null. ' +
      'A shop outside the token claims gives an empty page, never an error.',
    ok: 'A page of records and the cursor of the next page.',
    data: 'The records of the page, oldest first',
    properties: {
      nextCursor: {
        type: String,
        nullable: true,
        maxLength: MAX_PARAMETER_LENGTH,
        description:
          'Opaque cursor of the next page: pass it as Cursor, unchanged. null on the last page.',
      },
    },
    example: (cursor) => ({ nextCursor: cursor }),
  },
};
