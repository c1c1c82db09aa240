import { generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Reflector } from '@nestjs/core';
import { type Secret, sign, type SignOptions } from 'jsonwebtoken';
import { ProblemException } from '../common/errors/problem';
import { httpContext } from '../common/testing/http-context';
import type { AppConfig } from '../config/app-config';
import { loadConfig } from '../config/load-config';
import { type MigratedDatabase, databaseKinds } from '../database/testing/migrated-database';
import type { CallerClaims } from './caller';
import { BearerAuthGuard } from './guards/bearer-auth.guard';
import { JwtStrategy } from './jwt.strategy';
import { withLowS } from './keys/low-s';
import { loadSigningKeys, type SigningKeys } from './keys/signing-keys';
import { TokenRevocations } from './token-revocations';

/** An ES256 key of someone else, and the same key's public half, as PEM. */
const retired = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const retiredPem = retired.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const retiredPublic = retired.publicKey.export({ format: 'pem', type: 'spki' }).toString();
const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

const NOW = 1_767_600_000; // seconds
const HOURS_48 = 48 * 3600;
const CURVE_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/** The same ES256 token, with its signature's other valid form (s replaced by n − s). */
function highS(token: string): string {
  const dot = token.lastIndexOf('.');
  const signature = Buffer.from(token.slice(dot + 1), 'base64url');
  const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
  const other = Buffer.from((CURVE_ORDER - s).toString(16).padStart(64, '0'), 'hex');
  return (
    token.slice(0, dot + 1) +
    Buffer.concat([signature.subarray(0, 32), other]).toString('base64url')
  );
}

describe(`${JwtStrategy.name} behind ${BearerAuthGuard.name}, with the real key loader`, () => {
  const [sqlite] = databaseKinds();
  let database: MigratedDatabase;
  let config: AppConfig;
  let keys: SigningKeys;
  let revocations: TokenRevocations;
  let guard: BearerAuthGuard;

  beforeAll(async () => {
    database = await sqlite.open();
    config = loadConfig({
      APP_ENV: 'development',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'jwt-strategy-')),
      JWT_PREVIOUS_PUBLIC_KEYS: JSON.stringify({ 'key-2025': retiredPublic }),
    });
    keys = loadSigningKeys(config);
    revocations = new TokenRevocations(database.db, config);
    // Registers itself with passport under 'jwt', where the guard finds it.
    new JwtStrategy(keys, config, revocations);
    guard = new BearerAuthGuard(new Reflector(), revocations);
    await database.db.query(
      `INSERT INTO api_token_revocations (user_id, jti, issued_before_s, revoked_at_ms)
       VALUES (NULL, 'revoked-jti', NULL, ?), ('99', NULL, ?, ?)`,
      [NOW * 1000, NOW - 60, NOW * 1000],
    );
    // The revocations of the last 48 hours of this spec's clock are read.
    const clock = jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000);
    await revocations.onModuleInit();
    clock.mockRestore();
  });
  afterAll(async () => {
    revocations.onApplicationShutdown();
    await database.close();
  });
  beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000));
  afterEach(() => jest.restoreAllMocks());

  /** The claims the service writes (token.service.ts), overridden. */
  const claims = (overrides: Record<string, unknown> = {}) => ({
    sub: '7',
    unique_name: 'maria',
    role: ['ApiUser'],
    shop_code: ['SHOP001'],
    iat: NOW,
    nbf: NOW,
    exp: NOW + HOURS_48,
    jti: randomUUID(),
    ...overrides,
  });

  const token = (
    payload: object = claims(),
    options: SignOptions = {},
    key: Secret | KeyObject = keys.signingKey,
  ): string =>
    withLowS(
      sign(payload, key, {
        algorithm: 'ES256',
        keyid: keys.keyId,
        issuer: config.JWT_ISSUER,
        audience: config.JWT_AUDIENCE,
        ...options,
      }),
    );

  /** What the guard makes of a request with these Authorization lines: the caller, or the 401's detail. */
  async function verify(...authorization: string[]): Promise<CallerClaims | string> {
    const request: { user?: CallerClaims; headers: object; raw: object } = {
      ...{ headers: authorization.length ? { authorization: authorization[0] } : {} },
      ...{ raw: { rawHeaders: authorization.flatMap((value) => ['Authorization', value]) } },
    };
    try {
      await guard.canActivate(httpContext(request));
      return request.user as CallerClaims;
    } catch (error) {
      if (!(error instanceof ProblemException)) throw error;
      expect(error.getStatus()).toBe(401);
      return error.detail;
    }
  }

  it('should accept a token the service issued, and hand on its caller', async () => {
    const payload = claims();
    expect(await verify(`Bearer ${token(payload)}`)).toEqual({
      userId: '7',
      username: 'maria',
      roles: ['ApiUser'],
      shopCodes: ['SHOP001'],
      tokenId: payload.jti,
    });
  });

  it('should accept a token of a retired key still listed in JWT_PREVIOUS_PUBLIC_KEYS', async () => {
    const signed = token(claims(), { keyid: 'key-2025' }, retiredPem);
    expect(await verify(`Bearer ${signed}`)).toMatchObject({ userId: '7' });
  });

  it('should refuse a token from its exp on, with no clock tolerance', async () => {
    const signed = token(claims({ iat: NOW - HOURS_48, nbf: NOW - HOURS_48, exp: NOW }));
    jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000 - 1);
    expect(await verify(`Bearer ${signed}`)).toMatchObject({ userId: '7' });
    jest.spyOn(Date, 'now').mockReturnValue(NOW * 1000);
    expect(await verify(`Bearer ${signed}`)).toBe(
      'The token has expired: request a new one from /api/v1.0/Token.',
    );
  });

  it('should accept iat and nbf up to 30 seconds ahead of this clock, not more', async () => {
    const ahead = (seconds: number) =>
      token(claims({ iat: NOW + seconds, nbf: NOW + seconds, exp: NOW + seconds + HOURS_48 }));
    expect(await verify(`Bearer ${ahead(30)}`)).toMatchObject({ userId: '7' });
    expect(await verify(`Bearer ${ahead(31)}`)).toBe('The token is not valid yet.');
    const issuedAhead = token(claims({ iat: NOW + 31 }));
    expect(await verify(`Bearer ${issuedAhead}`)).toBe(
      'The token is invalid: it was issued in the future.',
    );
  });

  it('should refuse a token valid for more than 48 hours, or without the time and id claims', async () => {
    expect(await verify(`Bearer ${token(claims({ exp: NOW + HOURS_48 + 1 }))}`)).toBe(
      'The token is invalid: it is valid for more than 48 hours.',
    );
    const without = (name: string) =>
      Object.fromEntries(Object.entries(claims()).filter(([claim]) => claim !== name));
    expect(await verify(`Bearer ${token(without('nbf'))}`)).toBe(
      'The token is invalid: it has no nbf (not before) claim.',
    );
    expect(await verify(`Bearer ${token(without('exp'))}`)).toBe(
      'The token is invalid: it has no exp (expiry) claim.',
    );
  });

  it('should refuse claims not of the shape the service writes', async () => {
    for (const odd of [
      { role: 'ApiUser' },
      { shop_code: [1] },
      { sub: 7 },
      { unique_name: null },
    ]) {
      expect([odd, await verify(`Bearer ${token(claims(odd))}`)]).toEqual([
        odd,
        'The token is invalid: its claims are malformed.',
      ]);
    }
  });

  it('should refuse with 401, never an error, a token whose header or payload is not JSON', async () => {
    const part = (value: string) => Buffer.from(value).toString('base64url');
    const signature = token().split('.')[2];
    const header = part(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: keys.keyId }));
    // jws parses the payload as JSON when the header says typ JWT: that threw inside the
    // key lookup, out of passport, and became a 500.
    expect(await verify(`Bearer ${header}.${part('{not json')}.${signature}`)).toBe(
      'The token is invalid: it is not a well-formed token.',
    );
    // A header that is not JSON decodes to nothing: no key id, so no key of this service.
    expect(await verify(`Bearer ${part('{not json')}.${part('{}')}.${signature}`)).toBe(
      'The token is invalid: it was not signed by a key of this service.',
    );
  });

  it('should refuse a token signed by a key it does not know, or naming none', async () => {
    expect(await verify(`Bearer ${token(claims(), {}, stranger)}`)).toBe('The token is invalid.');
    expect(await verify(`Bearer ${token(claims(), { keyid: 'key-2024' })}`)).toBe(
      'The token is invalid: it was not signed by a key of this service.',
    );
    const noKid = withLowS(
      sign(claims(), keys.signingKey as Secret, {
        algorithm: 'ES256',
        issuer: config.JWT_ISSUER,
        audience: config.JWT_AUDIENCE,
      }),
    );
    expect(await verify(`Bearer ${noKid}`)).toBe(
      'The token is invalid: it was not signed by a key of this service.',
    );
  });

  it('should refuse the high-s form of a valid signature, as the service never issues it', async () => {
    const signed = token();
    expect(await verify(`Bearer ${signed}`)).toMatchObject({ userId: '7' });
    expect(await verify(`Bearer ${highS(signed)}`)).toBe(
      'The token is invalid: it is not encoded as this service issues it (high-s ECDSA).',
    );
  });

  it('should refuse a token whose header names critical extensions (crit, RFC 7515 §4.1.11)', async () => {
    for (const crit of [['exp'], ['http://example.com/unknown'], []]) {
      const signed = token(claims(), { header: { alg: 'ES256', kid: keys.keyId, crit } });
      expect(JSON.parse(Buffer.from(signed.split('.')[0], 'base64url').toString())).toMatchObject({
        crit,
      });
      expect(await verify(`Bearer ${signed}`)).toBe(
        'The token is invalid: its header names critical extensions (crit) this service does not support.',
      );
    }
  });

  it('should refuse another algorithm, audience or issuer', async () => {
    const [head, body] = token().split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: keys.keyId })).toString('base64url')}.${body}.`;
    expect(await verify(`Bearer ${none}`)).toBe('The token is invalid.');
    expect(head).not.toBe(none.split('.')[0]);
    expect(await verify(`Bearer ${token(claims(), { audience: 'another-api' })}`)).toBe(
      'The token is invalid: it was issued for another audience.',
    );
    expect(await verify(`Bearer ${token(claims(), { issuer: 'someone-else' })}`)).toBe(
      'The token is invalid: it was issued by another issuer.',
    );
  });

  it('should refuse a revoked token id, and the tokens of a user issued up to the revocation', async () => {
    expect(await verify(`Bearer ${token(claims({ jti: 'revoked-jti' }))}`)).toBe(
      'The token is invalid: it was revoked; sign in again for a new one.',
    );
    const ofUser99 = (iat: number) => token(claims({ sub: '99', iat, nbf: iat, exp: iat + 3600 }));
    expect(await verify(`Bearer ${ofUser99(NOW - 60)}`)).toBe(
      'The token is invalid: it was revoked; sign in again for a new one.',
    );
    expect(await verify(`Bearer ${ofUser99(NOW - 59)}`)).toMatchObject({ userId: '99' });
  });

  it('should read the token only from exactly one "Bearer <token>" header', async () => {
    const signed = token();
    expect(await verify()).toBe(
      'The Authorization header is missing: send "Authorization: Bearer <token>".',
    );
    expect(await verify(`bearer ${signed}`)).toBe(
      'The Authorization header must be exactly "Bearer", one space, then the token.',
    );
    expect(await verify(`Bearer ${signed}`, `Bearer ${signed}`)).toBe(
      'The Authorization header must be exactly "Bearer", one space, then the token.',
    );
    expect(await verify('Bearer not-a-token')).toBe(
      'The bearer token is malformed: a token is three base64url parts joined by dots, as POST /api/v1.0/Token returns it.',
    );
  });
});
