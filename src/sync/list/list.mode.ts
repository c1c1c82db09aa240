import { businessDatesOf, checkPeriod } from '../../common/query/filter-parameters';
import { MAX_DIGEST_DAYS, MAX_PAGE_LIMIT, MAX_PARAMETER_LENGTH } from '../../config/limits';
import {
  type KeysetPosition,
  LIST_READ,
  type PageQuery,
  type TimeRange,
} from '../../wall/list-read';
import type { Mode } from '../paging/mode';
import { PAGE_QUERY } from '../paging/page-query';

export type { KeysetPosition, ListSlice, PageQuery } from '../../wall/list-read';

/**
 * The list mode (GET /sales, /payments, /cash-movements): the records of a period in business
 * time (the source's `time` column, shop-local), oldest first, `{ data, nextCursor }` with
 * nextCursor null on the last page. Its read is the wall's LIST_READ (wall/list-read.ts).
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
  read: LIST_READ.read,
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
