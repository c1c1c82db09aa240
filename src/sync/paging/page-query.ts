import { MAX_PAGE_LIMIT, MAX_PARAMETER_LENGTH } from '../../config/limits';
import type { CallerClaims } from '../../common/caller-claims';
import { badRequest } from '../../common/errors/problem';
import type { CursorCodec, CursorState } from './cursor-codec';
import {
  businessDateParameter,
  type BusinessDates,
  FROM_EXAMPLE,
  localDateTimeParameter,
  shopCodeParameter,
  TO_EXAMPLE,
} from '../../common/query/filter-parameters';
import {
  parameterError,
  type QueryDeclaration,
  QueryParameter,
  readQuery,
} from '../../common/query/query-declaration';
import type { RawQuery } from '../../common/query/query-parameters';

/** The filters a cursor carries, as the first call gave them (stored forms; null: not given). */
export interface PageFilters {
  shopCode: string | null;
  /**
   * The period of the walk. By business date: the time range the first page found the dates'
   * rows in (sql/business-date-range.ts), carried so that every page walks the same one.
   */
  from: string | null;
  to: string | null;
  /** BusinessDateFrom and BusinessDateTo; null (or absent: the feeds) when not given. */
  businessDates?: BusinessDates | null;
}

/** Where a page starts: the stored date-time (empty for a feed) and id of the last row served. */
export interface PagePosition {
  time: string;
  id: string;
}

/** What a paginated request asks for, whatever its mode: filters, position, page size. */
export interface PageRequest {
  filters: PageFilters;
  /** null: the first page. */
  after: PagePosition | null;
  limit: number;
  /** Seconds the request may wait for a record (the feed's Wait); 0: answer at once. */
  wait: number;
}

/** The filter parameters a cursor carries, by their names in the contract. */
export type CarriedFilter = 'ShopCode' | 'From' | 'To' | 'BusinessDateFrom' | 'BusinessDateTo';

/** The parameters of a paginated endpoint, as readQuery parses them (each mode takes some). */
export interface PageParameters {
  ShopCode?: string;
  From?: string;
  To?: string;
  BusinessDateFrom?: string;
  BusinessDateTo?: string;
  Cursor?: string;
  Limit?: number;
  Wait?: number;
}

const CURSOR: QueryParameter<string, false> = {
  required: false,
  shape: 'a cursor',
  description:
    'To read the next page: the `nextCursor` of the previous page, passed unchanged (opaque, ' +
    'signed, bound to the query and the caller). Empty or omitted: the first page. With a ' +
    'cursor, ShopCode, From and To (or BusinessDateFrom and BusinessDateTo) may be left out; ' +
    'given again, they must match the query the cursor belongs to (else 400).',
  schema: { type: 'string', maxLength: MAX_PARAMETER_LENGTH },
  example: '',
  parse: (value) => value,
};

const LIMIT: QueryParameter<number, false> = {
  required: false,
  shape: 'a whole number',
  description: `Records per page, 1 to ${MAX_PAGE_LIMIT}.`,
  schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: MAX_PAGE_LIMIT },
  example: 100,
  parse: (value, name) => {
    if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > MAX_PAGE_LIMIT) {
      throw parameterError(name, `must be a whole number from 1 to ${MAX_PAGE_LIMIT}`);
    }
    return Number(value);
  },
};

/**
 * The query parameters of the paginated endpoints, declared once: the parser's and the document's.
 * Each mode takes those it needs and may say more about one (the feed's Cursor and From).
 */
export const PAGE_QUERY = {
  ShopCode: shopCodeParameter('an empty page'),
  From: localDateTimeParameter({
    required: false,
    role: 'Start of the period, inclusive. Omitted: unbounded.',
    example: FROM_EXAMPLE,
  }),
  To: localDateTimeParameter({
    required: false,
    role: 'End of the period, exclusive; must not be before From. Omitted: unbounded.',
    example: TO_EXAMPLE,
  }),
  BusinessDateFrom: businessDateParameter(
    'First business date, inclusive: only the records whose `businessDate` is in the range.',
  ),
  BusinessDateTo: businessDateParameter(
    'End of the business dates, exclusive; must not be before BusinessDateFrom.',
  ),
  Cursor: CURSOR,
  Limit: LIMIT,
};

/** Their names, in the contract's spelling and the document's order. */
export const PAGE_PARAMETERS = Object.keys(PAGE_QUERY) as Array<keyof typeof PAGE_QUERY>;

/**
 * The page a request asks for, in a mode that takes `declaration`'s parameters and whose cursors
 * carry the `carried` filters. With a cursor, the filters come from the cursor; any of them given
 * again must be the same. A cursor of another resource (or mode: `sales/feed` is not `sales`) or
 * another user is refused. An empty Cursor is the first page (so a tool can send the documented
 * example as-is). `check` runs on the parameters first (the list's From before To).
 */
export function parsePageRequest(
  raw: RawQuery,
  mode: {
    declaration: QueryDeclaration;
    carried: readonly CarriedFilter[];
    check?: (parameters: PageParameters) => void;
  },
  resource: string,
  caller: CallerClaims,
  cursors: CursorCodec,
): PageRequest {
  const q = readQuery(raw, mode.declaration) as PageParameters;
  mode.check?.(q);
  const [limit, wait] = [q.Limit ?? MAX_PAGE_LIMIT, q.Wait ?? 0];
  const dates =
    q.BusinessDateFrom !== undefined && q.BusinessDateTo !== undefined
      ? { from: q.BusinessDateFrom, to: q.BusinessDateTo }
      : null;
  if (!q.Cursor) {
    const filters = {
      shopCode: q.ShopCode ?? null,
      from: q.From ?? null,
      to: q.To ?? null,
      businessDates: dates,
    };
    return { filters, after: null, limit, wait };
  }
  const state = cursors.decode(q.Cursor);
  const businessDates = state.businessDates ?? null;
  const filters = { shopCode: state.shopCode, from: state.from, to: state.to, businessDates };
  const given = {
    ShopCode: q.ShopCode,
    // By business date, From and To carry the walk's time range, never given by the caller.
    From: businessDates && q.From !== undefined ? '' : q.From,
    To: businessDates && q.To !== undefined ? '' : q.To,
    BusinessDateFrom: q.BusinessDateFrom,
    BusinessDateTo: q.BusinessDateTo,
  };
  const carried = {
    ShopCode: filters.shopCode,
    From: filters.from,
    To: filters.to,
    BusinessDateFrom: businessDates?.from ?? null,
    BusinessDateTo: businessDates?.to ?? null,
  };
  checkCursor(state, resource, caller, pick(given, mode.carried), pick(carried, mode.carried));
  return { filters, after: { time: state.afterTime, id: state.afterId }, limit, wait };
}

function pick<V>(values: Record<CarriedFilter, V>, names: readonly CarriedFilter[]) {
  return Object.fromEntries(names.map((name) => [name, values[name]])) as Record<CarriedFilter, V>;
}

/**
 * A cursor is refused unless it was issued for this resource and caller, and every filter given
 * again (`given`, undefined when left out) equals the one it carries.
 */
function checkCursor<F extends string>(
  state: CursorState,
  resource: string,
  caller: CallerClaims,
  given: Record<F, string | undefined>,
  carried: Record<F, string | null>,
): void {
  if (state.resource !== resource || state.subject !== caller.userId) {
    throw parameterError('Cursor', 'was not issued for this resource and caller');
  }
  const mismatched = (Object.keys(given) as F[]).filter(
    (name) => given[name] !== undefined && given[name] !== carried[name],
  );
  if (mismatched.length > 0) {
    throw badRequest(
      `${mismatched.join(', ')} must match the query the cursor belongs to, or be left out.`,
      mismatched.map((field) => ({ field, message: 'does not match the cursor' })),
    );
  }
}
