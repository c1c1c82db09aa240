import type { KeyObject } from 'node:crypto';
import { verify } from 'jsonwebtoken';
import { type CallerClaims, callerFromClaims } from '../../src/auth/caller';

export interface JwtSettings {
  publicKey: KeyObject;
  issuer: string;
  audience: string;
}

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
    return typeof claims === 'object' ? callerFromClaims(claims) : null;
  } catch {
    return null;
  }
}
