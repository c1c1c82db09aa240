import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { CallerClaims } from '../common/caller-claims';

/** The claims type lives in common/ (which may not import auth/); `@Caller()` hands it out. */
export type { CallerClaims };

export const API_USER_ROLE = 'ApiUser';

const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The caller of a verified token's claims, or null when they are not of the shape we issue. */
export function callerFromClaims(claims: {
  sub?: unknown;
  unique_name?: unknown;
  role?: unknown;
  shop_code?: unknown;
  jti?: unknown;
}): CallerClaims | null {
  const { sub, unique_name, role, shop_code, jti } = claims;
  if (
    typeof sub !== 'string' ||
    typeof unique_name !== 'string' ||
    !isStringArray(role) ||
    !isStringArray(shop_code) ||
    typeof jti !== 'string'
  ) {
    return null;
  }
  return { userId: sub, username: unique_name, roles: role, shopCodes: shop_code, tokenId: jti };
}

/** The verified caller; only on routes behind the bearer guard (every route but the token route). */
export const Caller = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): CallerClaims => {
    const request = ctx.switchToHttp().getRequest<{ user?: CallerClaims }>();
    if (!request.user) throw new Error('Caller used on a route without authentication');
    return request.user;
  },
);
