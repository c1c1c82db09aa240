import { BULK_CHECKPOINT_RECORDS, MAX_BULK_DAYS } from '../../config/limits';
import type { CallerClaims } from '../../common/caller-claims';
import { badRequest } from '../../common/errors/problem';
import {
  businessDateParameter,
  businessDatesOf,
  checkPeriod,
  DAY_MS,
  FROM_EXAMPLE,
  localDateTimeParameter,
  shopCodeParameter,
  TO_EXAMPLE,
} from '../../common/query/filter-parameters';
import { parameterError, type QueryParameter } from '../../common/query/query-declaration';
import type { RawQuery } from '../../common/query/query-parameters';
import type { CursorCodec } from '../paging/cursor-codec';
import {
  PAGE_QUERY,
  type PageParameters,
  type PageRequest,
  parsePageRequest,
} from '../paging/page-query';

/** Checkpoint cursors name the bulk read: `sales/bulk`, never a list page's or a feed's. */
export const bulkRoute = (resource: string): string => `${resource}/bulk`;

const CURSOR: QueryParameter<string, false> = {
  ...PAGE_QUERY.Cursor,
  description:
    'To resume a bulk read that was cut: the `cursor` of the last `checkpoint` line received, ' +
    'unchanged (opaque, signed, bound to the resource, the caller and the period). The read goes ' +
    'on after that checkpoint; drop the records received after it. With a cursor, ShopCode, From ' +
    'and To may be left out; given again, they must match (else 400). Empty or omitted: from the ' +
    'start of the period.',
};

/** The bulk read's parameters: one shop, one period of at most MAX_BULK_DAYS days, a cursor. */
export const BULK_QUERY = {
  ShopCode: {
    ...shopCodeParameter('a stream without records'),
    description:
      'Shop to read: required (one shop a stream). A shop outside the token claims yields a ' +
      'stream without records (200), the same as an unknown one, never data of another shop.',
  },
  From: localDateTimeParameter({
    required: false,
    role:
      'Start of the period, inclusive; required without Cursor, unless BusinessDateFrom and ' +
      'BusinessDateTo are given.',
    example: FROM_EXAMPLE,
  }),
  To: localDateTimeParameter({
    required: false,
    role:
      `End of the period, exclusive; required as From is, at most ${MAX_BULK_DAYS} days ` +
      'after From.',
    example: TO_EXAMPLE,
  }),
  BusinessDateFrom: businessDateParameter(
    'First business date, inclusive: the records whose `businessDate` is in the range, in the ' +
      'same order.',
  ),
  BusinessDateTo: businessDateParameter(
    `End of the business dates, exclusive; at most ${MAX_BULK_DAYS} days after BusinessDateFrom.`,
  ),
  Cursor: CURSOR,
};

/**
 * The cross-parameter rules: ShopCode, and From and To or BusinessDateFrom and BusinessDateTo,
 * given unless a Cursor is (each missing one named in one 400), never both pairs nor half a
 * pair, From not after To, at most MAX_BULK_DAYS days apart (a 400 naming To, or
 * BusinessDateTo, and the longest period).
 */
function check(q: PageParameters): void {
  const byDates = businessDatesOf(q, MAX_BULK_DAYS) !== null;
  if (!q.Cursor) {
    const required = byDates ? (['ShopCode'] as const) : (['ShopCode', 'From', 'To'] as const);
    const missing = required.filter((name) => q[name] === undefined);
    if (missing.length > 0) {
      const message = 'is required (without Cursor)';
      throw badRequest(
        `${missing.map((name) => `${name} ${message}`).join('; ')}.`,
        missing.map((field) => ({ field, message })),
      );
    }
  }
  checkPeriod(q.From, q.To);
  if (q.From !== undefined && q.To !== undefined) {
    const days =
      (Date.parse(`${q.To.replace(' ', 'T')}Z`) - Date.parse(`${q.From.replace(' ', 'T')}Z`)) /
      DAY_MS;
    if (days > MAX_BULK_DAYS) {
      throw parameterError('To', `must be at most ${MAX_BULK_DAYS} days after From`);
    }
  }
}

/**
 * A bulk request as the reader takes it: the list's filters (a period, or business dates and, once
 * resumed, their walk's time range), where to resume, the chunk size.
 */
export type BulkRequest = PageRequest & { filters: { shopCode: string } };

/** Parses a bulk read's query (and its cursor) for the caller, or throws its 400. */
export function parseBulkRequest(
  raw: RawQuery,
  resource: string,
  caller: CallerClaims,
  cursors: CursorCodec,
): BulkRequest {
  const carried = ['ShopCode', 'From', 'To', 'BusinessDateFrom', 'BusinessDateTo'] as const;
  const request = parsePageRequest(
    raw,
    { declaration: BULK_QUERY, carried, check },
    bulkRoute(resource),
    caller,
    cursors,
  );
  const { shopCode, from, to, businessDates = null } = request.filters;
  // A checkpoint cursor carries a shop and a period or dates: issued only for a request with them.
  if (shopCode === null || (businessDates === null && (from === null || to === null))) {
    throw parameterError('Cursor', 'is not a cursor of a bulk read');
  }
  return {
    ...request,
    filters: { shopCode, from, to, businessDates },
    limit: BULK_CHECKPOINT_RECORDS,
  };
}
