import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { sign, SignOptions } from 'jsonwebtoken';
import { withLowS } from '../../src/auth/keys/low-s';
import { TEST_KEY_ID, TEST_PRIVATE_KEY } from './test-app';

export const TEST_ISSUER = 'pos-read-api';
export const TEST_AUDIENCE = 'pos-read-api/v1.0';

export interface ForgeOptions {
  claims?: Record<string, unknown>;
  key?: string;
  kid?: string;
  algorithm?: SignOptions['algorithm'];
}

/**
 * Signs a token the way the service does, ES256 signatures in their low-s form (or, with
 * options, the way an attacker would).
 */
export function forgeToken(options: ForgeOptions = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: '1',
    unique_name: 'forged',
    role: ['ApiUser'],
    shop_code: [],
    iat: now,
    nbf: now,
    exp: now + 3600,
    jti: 'forged-jti',
    iss: TEST_ISSUER,
    aud: TEST_AUDIENCE,
    ...options.claims,
  };
  const algorithm = options.algorithm ?? 'ES256';
  const token = sign(claims, options.key ?? TEST_PRIVATE_KEY, {
    algorithm,
    keyid: options.kid ?? TEST_KEY_ID,
  });
  return algorithm === 'ES256' ? withLowS(token) : token;
}

export function newEcPrivateKey(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
}

export function publicKeyOf(privatePem: string): string {
  return createPublicKey(privatePem).export({ format: 'pem', type: 'spki' }).toString();
}

/** A token with `alg: none` and no signature. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${enc({ alg: 'none', typ: 'JWT', kid: TEST_KEY_ID })}.${enc(claims)}.`;
}

export function decodeSegment(token: string, index: 0 | 1): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[index], 'base64url').toString('utf8'));
}
