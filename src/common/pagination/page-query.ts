import type { CallerClaims } from '../caller-claims';
import { badRequest } from '../errors/problem';
import { parseLocalDateTime } from '../local-date-time';
import type { CursorCodec } from './cursor-codec';
import type { KeysetBounds } from './keyset-query';
import { RawQuery, readQueryParameters } from './query-parameters';

export const PAGE_PARAMETERS = ['ShopCode', 'From', 'To', 'Cursor', 'Limit'] as const;
export const MAX_LIMIT = 500;
export const MAX_SHOP_CODE_LENGTH = 64;

export interface PageQuery extends KeysetBounds {
  shopCode: string | null;
}

const fieldError = (field: string, message: string) =>
  badRequest(`${field}: ${message}.`, [{ field, message }]);

function parseLimit(value: string | undefined): number {
  if (value === undefined) return MAX_LIMIT;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > MAX_LIMIT) {
    throw fieldError('Limit', `must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  return Number(value);
}

/** ShopCode, From and To of the query itself (without a cursor). */
export function parseFilters(p: { ShopCode?: string; From?: string; To?: string }) {
  if (
    p.ShopCode !== undefined &&
    (p.ShopCode.length === 0 || p.ShopCode.length > MAX_SHOP_CODE_LENGTH)
  ) {
    throw fieldError('ShopCode', `must be 1 to ${MAX_SHOP_CODE_LENGTH} characters`);
  }
  const from = p.From === undefined ? null : parseLocalDateTime('From', p.From);
  const to = p.To === undefined ? null : parseLocalDateTime('To', p.To);
  if (from !== null && to !== null && from > to) throw fieldError('From', 'must not be after To');
  return { shopCode: p.ShopCode ?? null, from, to };
}

/**
 * The page a request asks for. With a cursor, the filters come from the cursor; any filter given
 * again must be the same. A cursor of another resource or another user is refused.
 */
export function parsePageQuery(
  raw: RawQuery,
  resource: string,
  caller: CallerClaims,
  cursors: CursorCodec,
): PageQuery {
  const p = readQueryParameters(raw, PAGE_PARAMETERS);
  const limit = parseLimit(p.Limit);
  const filters = parseFilters(p);
  if (p.Cursor === undefined) return { ...filters, limit, after: null };
  const state = cursors.decode(p.Cursor);
  if (state.resource !== resource || state.subject !== caller.userId) {
    throw fieldError('Cursor', `was not issued for this resource and caller`);
  }
  const mismatched = (['ShopCode', 'From', 'To'] as const).filter((name) => {
    if (p[name] === undefined) return false;
    const given =
      name === 'ShopCode' ? filters.shopCode : name === 'From' ? filters.from : filters.to;
    const carried = name === 'ShopCode' ? state.shopCode : name === 'From' ? state.from : state.to;
    return given !== carried;
  });
  if (mismatched.length > 0) {
    throw badRequest(
      `${mismatched.join(', ')} must match the query the cursor belongs to, or be left out.`,
      mismatched.map((field) => ({ field, message: 'does not match the cursor' })),
    );
  }
  return {
    shopCode: state.shopCode,
    from: state.from,
    to: state.to,
    limit,
    after: { time: state.afterTime, id: state.afterId },
  };
}
