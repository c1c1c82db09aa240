import type { CallerClaims } from '../auth/caller';

/**
 * The one place that decides which shops a data query may read: the token's shop_code claims,
 * narrowed to the requested shop. A shop outside the claims yields no shop at all, so the
 * answer is an empty result, the same whether that shop exists or not.
 */
export function shopsInScope(caller: CallerClaims, requestedShopCode?: string): string[] {
  const claimed = [...new Set(caller.shopCodes)].sort();
  if (requestedShopCode === undefined) return claimed;
  return claimed.includes(requestedShopCode) ? [requestedShopCode] : [];
}
