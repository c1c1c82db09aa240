import { TOKEN_LIFETIME_HOURS, TOKEN_LIFETIME_SECONDS } from '../config/limits';

/**
 * How far the clocks of the instances may disagree: a token's `iat` and `nbf` may lie this far
 * ahead of this instance's clock. Never applied to `exp`: a token is refused from its `exp` on.
 */
export const CLOCK_TOLERANCE_SECONDS = 30;

const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * Why a token's time and id claims are not those the service issues, or null when they are:
 * `exp`, `iat`, `nbf` (numbers) and `jti` (a string) all present, a lifetime of at most TOKEN_LIFETIME_HOURS,
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
  if (exp - iat > TOKEN_LIFETIME_SECONDS)
    return `it is valid for more than ${TOKEN_LIFETIME_HOURS} hours`;
  if (iat > nowSeconds + CLOCK_TOLERANCE_SECONDS) return 'it was issued in the future';
  return null;
}
