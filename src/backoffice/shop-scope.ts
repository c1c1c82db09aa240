import type { CallerClaims } from '../common/caller-claims';

/**
 * Which shops a read may touch: the token's shop_code claims, narrowed to the requested shop.
 * A shop outside the claims yields no shop at all, so the answer is an empty result, the same
 * whether that shop exists or not. Codes compare exactly (the back office's binary collation).
 */
export function shopsInScope(caller: CallerClaims, requestedShopCode?: string): string[] {
  const claimed = [...new Set(caller.shopCodes)].sort();
  if (requestedShopCode === undefined) return claimed;
  return claimed.includes(requestedShopCode) ? [requestedShopCode] : [];
}
