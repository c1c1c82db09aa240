import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { decode } from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '../config/app-config';
import { CallerClaims } from './caller';
import { SigningKeys } from './keys/signing-keys';
import { bearerTokenOf } from './bearer-token';

interface TokenPayload {
  sub?: unknown;
  unique_name?: unknown;
  role?: unknown;
  shop_code?: unknown;
  jti?: unknown;
}

const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

export class UnknownKeyError extends Error {
  override name = 'UnknownKeyError';
}
export class MalformedClaimsError extends Error {
  override name = 'MalformedClaimsError';
}

/**
 * Verifies the bearer token: pinned algorithm, key chosen by `kid` among the current and the
 * retired keys, issuer, audience, expiry and not-before.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(keys: SigningKeys, config: AppConfig) {
    super({
      // The guard has already checked the header's exact shape; this only reads it.
      jwtFromRequest: ExtractJwt.fromExtractors([
        (req: { headers: Record<string, string | string[] | undefined> }) => {
          try {
            return bearerTokenOf(req.headers.authorization);
          } catch {
            return null;
          }
        },
      ]),
      secretOrKeyProvider: (
        _req: unknown,
        rawJwt: string,
        done: (err: Error | null, key?: string | Buffer) => void,
      ) => {
        const header = decode(rawJwt, { complete: true })?.header;
        const key = keys.verificationKey(header?.kid);
        if (!key) return done(new UnknownKeyError('unknown key id'));
        // passport-jwt's types say string | Buffer; jsonwebtoken accepts a KeyObject too.
        done(null, key as unknown as string);
      },
      algorithms: [config.JWT_ALGORITHM],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      ignoreExpiration: false,
    });
  }

  validate(payload: TokenPayload): CallerClaims {
    const { sub, unique_name, role, shop_code, jti } = payload;
    if (
      typeof sub !== 'string' ||
      typeof unique_name !== 'string' ||
      !isStringArray(role) ||
      !isStringArray(shop_code) ||
      typeof jti !== 'string'
    ) {
      throw new MalformedClaimsError('token claims are malformed');
    }
    return { userId: sub, username: unique_name, roles: role, shopCodes: shop_code, tokenId: jti };
  }
}
