import type { KeyObject } from 'node:crypto';
import { verify } from 'jsonwebtoken';
import type { CallerClaims } from '../../src/auth/caller';

export interface JwtSettings {
  publicKey: KeyObject;
  issuer: string;
  audience: string;
}

const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * What the service's bearer guard and JWT strategy check, without a framework: `Bearer <token>`,
 * ES256 signature, issuer, audience, expiry, the claims' shape. Null when any of it fails.
 */
export function callerOf(authorization: string | undefined, jwt: JwtSettings): CallerClaims | null {
  if (authorization === undefined || !authorization.startsWith('Bearer ')) return null;
  try {
    const claims = verify(authorization.slice(7), jwt.publicKey, {
      algorithms: ['ES256'],
      issuer: jwt.issuer,
      audience: jwt.audience,
    });
    if (typeof claims !== 'object') return null;
    const { sub, unique_name, role, shop_code, jti } = claims as Record<string, unknown>;
    if (
      typeof sub !== 'string' ||
      typeof unique_name !== 'string' ||
      !isStrings(role) ||
      !isStrings(shop_code) ||
      typeof jti !== 'string'
    ) {
      return null;
    }
    return { userId: sub, username: unique_name, roles: role, shopCodes: shop_code, tokenId: jti };
  } catch {
    return null;
  }
}
