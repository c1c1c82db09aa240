/**
 * The contract's token lifetime, 48 hours. Not imported from token.service.ts: that module's
 * imports would make a cycle through the strategy; token-claims.spec.ts checks they agree.
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 48 * 60 * 60;

/**
 * How far the clocks of the instances may disagree: a token's `iat` and `nbf` may lie this far
 * ahead of this instance's clock, and its `exp` this far behind.
 */
export const CLOCK_TOLERANCE_SECONDS = 30;

const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * Why a token's time and id claims are not those the service issues, or null when they are:
 * `exp`, `iat`, `nbf` (numbers) and `jti` (a string) all present, a lifetime of at most 48 hours,
 * and an `iat` that is not in the future. The signature, `exp` and `nbf` themselves are checked
 * by jsonwebtoken before this.
 */
export function timeClaimsProblem(
  claims: { exp?: unknown; iat?: unknown; nbf?: unknown; jti?: unknown },
  nowSeconds: number,
): string | null {
  const { exp, iat, nbf, jti } = claims;
  if (!isTime(exp)) return 'it has no exp (expiry) claim';
  if (!isTime(iat)) return 'it has no iat (issued at) claim';
  if (!isTime(nbf)) return 'it has no nbf (not before) claim';
  if (typeof jti !== 'string' || jti === '') return 'it has no jti (token id) claim';
  if (exp - iat > MAX_TOKEN_LIFETIME_SECONDS) return 'it is valid for more than 48 hours';
  if (iat > nowSeconds + CLOCK_TOLERANCE_SECONDS) return 'it was issued in the future';
  return null;
}
