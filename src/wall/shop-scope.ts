import type { CallerClaims } from '../common/caller-claims';

declare const fromClaims: unique symbol;

/**
 * The shops a read may touch, as shopsInScope derives them from a caller's claims. A mode's read
 * takes only this type: a list of shops from anywhere else is not one.
 */
export type ShopScope = readonly string[] & { readonly [fromClaims]: true };

/**
 * Which shops a read may touch: the token's shop_code claims, narrowed to the requested shop.
 * A shop outside the claims yields no shop at all, so the answer is an empty result, the same
 * whether that shop exists or not. Codes compare exactly (the back office's binary collation).
 */
export function shopsInScope(caller: CallerClaims, requestedShopCode?: string): ShopScope {
  const claimed = [...new Set(caller.shopCodes)].sort();
  if (requestedShopCode === undefined) return claimed as unknown as ShopScope;
  return (claimed.includes(requestedShopCode) ? [requestedShopCode] : []) as unknown as ShopScope;
}
