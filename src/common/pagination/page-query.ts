import { MAX_PAGE_LIMIT, MAX_PARAMETER_LENGTH } from '../../config/limits';
import type { CallerClaims } from '../caller-claims';
import { badRequest } from '../errors/problem';
import type { CursorCodec, CursorState } from './cursor-codec';
import {
  checkPeriod,
  FROM_EXAMPLE,
  localDateTimeParameter,
  shopCodeParameter,
  TO_EXAMPLE,
} from './filter-parameters';
import type { KeysetBounds } from './keyset-query';
import { parameterError, QueryParameter, readQuery } from './query-declaration';
import type { RawQuery } from './query-parameters';

export interface PageQuery extends KeysetBounds {
  shopCode: string | null;
}

const CURSOR: QueryParameter<string, false> = {
  required: false,
  shape: 'a cursor',
  description:
    'To read the next page: the `nextCursor` of the previous page, passed unchanged (opaque, ' +
    'signed, bound to the query and the caller). Empty or omitted: the first page. With a ' +
    'cursor, ShopCode, From and To may be left out; given again, they must match the query the ' +
    'cursor belongs to (else 400).',
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

/** The query parameters of the three cursor endpoints: the parser and the document's. */
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
  Cursor: CURSOR,
  Limit: LIMIT,
};

/** Their names, in the contract's spelling and the document's order. */
export const PAGE_PARAMETERS = Object.keys(PAGE_QUERY) as Array<keyof typeof PAGE_QUERY>;

/**
 * The page a request asks for. With a cursor, the filters come from the cursor; any filter given
 * again must be the same. A cursor of another resource or another user is refused. An empty
 * Cursor is the first page (so a tool can send the documented example as-is).
 */
export function parsePageQuery(
  raw: RawQuery,
  resource: string,
  caller: CallerClaims,
  cursors: CursorCodec,
): PageQuery {
  const q = readQuery(raw, PAGE_QUERY);
  checkPeriod(q.From, q.To);
  const limit = q.Limit ?? MAX_PAGE_LIMIT;
  if (!q.Cursor) {
    const [shopCode, from, to] = [q.ShopCode ?? null, q.From ?? null, q.To ?? null];
    return { shopCode, from, to, limit, after: null };
  }
  const state = cursors.decode(q.Cursor);
  checkCursor(
    state,
    resource,
    caller,
    { ShopCode: q.ShopCode, From: q.From, To: q.To },
    {
      ShopCode: state.shopCode,
      From: state.from,
      To: state.to,
    },
  );
  return {
    shopCode: state.shopCode,
    from: state.from,
    to: state.to,
    limit,
    after: { time: state.afterTime, id: state.afterId },
  };
}

/**
 * A cursor is refused unless it was issued for this resource and caller, and every filter given
 * again (`given`, undefined when left out) equals the one it carries.
 */
export function checkCursor<F extends string>(
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
