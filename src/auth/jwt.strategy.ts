import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { decode, type JwtHeader, TokenExpiredError } from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '../config/app-config';
import { CallerClaims, callerFromClaims } from './caller';
import { SigningKeys } from './keys/signing-keys';
import { authorizationHeaderOf, bearerTokenOf } from './bearer-token';
import { hasHighS } from './keys/low-s';
import { CLOCK_TOLERANCE_SECONDS, timeClaimsProblem } from './token-claims';
import { REVOKED, TokenRevocations } from './token-revocations';

class UnknownKeyError extends Error {
  override name = 'UnknownKeyError';
}
class MalformedClaimsError extends Error {
  override name = 'MalformedClaimsError';
}

/**
 * Verifies the bearer token: pinned algorithm, an ES256 signature in its low-s form (the only one
 * the service issues), no `crit` header parameter (no extension is understood), key chosen by `kid` among the current and the retired keys, issuer,
 * audience and not-before (CLOCK_TOLERANCE_SECONDS of clock difference allowed), expiry with no
 * tolerance (the contract: once 48 hours have passed, 401), then the claims the service always
 * writes (token-claims.ts).
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    keys: SigningKeys,
    config: AppConfig,
    private readonly revocations: TokenRevocations,
  ) {
    super({
      // The guard has already checked the header's exact shape; this only reads it.
      jwtFromRequest: ExtractJwt.fromExtractors([
        (req: { raw: { rawHeaders: string[] } }) => {
          try {
            // Stryker disable BlockStatement: the catch is unreachable: BearerAuthGuard refuses a malformed header before passport runs this (and passport-jwt reads undefined as no token, as null)
            return bearerTokenOf(authorizationHeaderOf(req.raw));
          } catch {
            // Stryker restore BlockStatement
            return null;
          }
        },
      ]),
      secretOrKeyProvider: (
        _req: unknown,
        rawJwt: string,
        done: (err: Error | null, key?: string | Buffer) => void,
      ) => {
        let header: JwtHeader | undefined;
        try {
          header = decode(rawJwt, { complete: true })?.header;
        } catch {
          // jws parses the payload as JSON when the header says typ JWT, and throws on anything
          // else: a refusal like any malformed token, never an error out of passport (a 500).
          return done(new MalformedClaimsError('it is not a well-formed token'));
        }
        if (header?.alg === 'ES256' && hasHighS(rawJwt)) {
          return done(
            new MalformedClaimsError('it is not encoded as this service issues it (high-s ECDSA)'),
          );
        }
        // RFC 7515 §4.1.11: extensions named critical must be understood; this service knows none.
        if (header && 'crit' in header) {
          return done(
            new MalformedClaimsError(
              'its header names critical extensions (crit) this service does not support',
            ),
          );
        }
        const key = keys.verificationKey(header?.kid);
        if (!key) return done(new UnknownKeyError('unknown key id'));
        // passport-jwt's types say string | Buffer; jsonwebtoken accepts a KeyObject too.
        done(null, key as unknown as string);
      },
      algorithms: [config.JWT_ALGORITHM],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      ignoreExpiration: false,
      jsonWebTokenOptions: { clockTolerance: CLOCK_TOLERANCE_SECONDS },
    });
  }

  validate(
    payload: Parameters<typeof callerFromClaims>[0] & Parameters<typeof timeClaimsProblem>[0],
  ): CallerClaims {
    const now = Date.now() / 1000;
    // jsonwebtoken applies its clockTolerance to exp too; the contract allows none there.
    if (typeof payload.exp === 'number' && now >= payload.exp) {
      throw new TokenExpiredError('jwt expired', new Date(payload.exp * 1000));
    }
    const problem = timeClaimsProblem(payload, now);
    if (problem) throw new MalformedClaimsError(problem);
    const caller = callerFromClaims(payload);
    if (!caller) throw new MalformedClaimsError('its claims are malformed');
    // Emergency revocations only (revoke-tokens), from memory: never disable or revoke-shop.
    if (!this.revocations.admits(caller, payload.iat as number)) {
      throw new MalformedClaimsError(REVOKED);
    }
    return caller;
  }
}
