import { Reflector } from '@nestjs/core';
import { ProblemException, serviceUnavailable } from '../../common/errors/problem';
import type { TokenRevocations } from '../token-revocations';
import { httpContext } from '../../common/testing/http-context';
import { currentRevocations } from '../testing/current-revocations';
import { BearerAuthGuard } from './bearer-auth.guard';

const guard = new BearerAuthGuard(new Reflector(), currentRevocations);

/** The problem a call threw (or null when it did not throw). */
function problemOf(run: () => unknown): ProblemException | null {
  try {
    const result = run();
    // A header the guard let through goes on to passport (no strategy here): the test fails on
    // the null below, and the rejection must not end the process (a mutation run's runner).
    if (result instanceof Promise) result.catch(() => undefined);
  } catch (error) {
    if (error instanceof ProblemException) return error;
    throw error;
  }
  return null;
}

const named = (name: string, message = ''): Error => Object.assign(new Error(message), { name });

/** A Fastify request as the guard reads it: Authorization lines counted in the raw headers. */
const withHeaders = (...authorization: string[]) => ({
  headers: authorization.length > 0 ? { authorization: authorization[0] } : {},
  raw: { rawHeaders: authorization.flatMap((value) => ['Authorization', value]) },
});

describe(BearerAuthGuard.name, () => {
  it('should let a request without any header through on a @Public() route', () => {
    const context = httpContext({ headers: {} }, { route: 'publicRoute' });
    expect(guard.canActivate(context)).toBe(true);
  });

  it('should answer 503 before reading the token while the revocation list is not current', () => {
    const stale = {
      assertCurrent: () => {
        throw serviceUnavailable(
          'Tokens cannot be checked against their revocations right now.',
          5,
        );
      },
    } as unknown as TokenRevocations;
    const guarded = new BearerAuthGuard(new Reflector(), stale);
    const problem = problemOf(() => guarded.canActivate(httpContext(withHeaders('Bearer a.b.c'))));
    expect(problem?.getStatus()).toBe(503);
    // A public route (the token route) is not held back.
    expect(guarded.canActivate(httpContext({ headers: {} }, { route: 'publicRoute' }))).toBe(true);
  });

  it('should answer 401 without invalid_token when the Authorization header is missing', () => {
    const problem = problemOf(() => guard.canActivate(httpContext(withHeaders())));
    expect(problem?.getStatus()).toBe(401);
    expect(problem?.headers['WWW-Authenticate']).toBe('Bearer realm="pos-read-api"');
  });

  it('should answer 401 invalid_token when the header is not exactly "Bearer <token>"', () => {
    for (const authorization of ['bearer a.b.c', 'Bearer  a.b.c', 'Bearer a.b.c x', 'Basic dTpw']) {
      const problem = problemOf(() => guard.canActivate(httpContext(withHeaders(authorization))));
      expect([authorization, problem?.getStatus()]).toEqual([authorization, 401]);
      expect(problem?.headers['WWW-Authenticate']).toMatch(/error="invalid_token"/);
    }
  });

  it('should answer 401 invalid_token when the Authorization header is sent twice, in any order', () => {
    for (const pair of [
      ['Bearer a.b.c', 'Basic dTpw'],
      ['Basic dTpw', 'Bearer a.b.c'],
      ['Bearer a.b.c', 'Bearer a.b.c'],
    ]) {
      const problem = problemOf(() => guard.canActivate(httpContext(withHeaders(...pair))));
      expect([pair, problem?.getStatus()]).toEqual([pair, 401]);
      expect(problem?.headers['WWW-Authenticate']).toMatch(/error="invalid_token"/);
    }
  });

  it('should hand the verified user to the request', () => {
    const user = { userId: '7' };
    expect(guard.handleRequest(null, user, undefined)).toBe(user);
  });

  it('should say why a token was refused, without any detail of keys or signatures', () => {
    const reasons: Array<[unknown, RegExp]> = [
      [named('TokenExpiredError', 'jwt expired'), /has expired: request a new one/],
      [named('NotBeforeError', 'jwt not active'), /not valid yet/],
      [
        named('MalformedClaimsError', 'it has no jti claim'),
        /^The token is invalid: it has no jti claim\.$/,
      ],
      [named('UnknownKeyError'), /not signed by a key of this service/],
      [named('JsonWebTokenError', 'jwt audience invalid. expected: x'), /another audience/],
      [named('JsonWebTokenError', 'jwt issuer invalid. expected: x'), /another issuer/],
      [named('JsonWebTokenError', 'invalid signature'), /^The token is invalid\.$/],
    ];
    for (const [info, reason] of reasons) {
      const problem = problemOf(() => guard.handleRequest(null, false, info));
      expect(problem?.getStatus()).toBe(401);
      expect(problem?.detail).toMatch(reason);
      expect(problem?.headers['WWW-Authenticate']).toMatch(/error="invalid_token"/);
    }
  });

  it('should refuse with the error rather than the info when passport reports one', () => {
    const problem = problemOf(() =>
      guard.handleRequest(named('TokenExpiredError'), { userId: '7' }, named('NotBeforeError')),
    );
    expect(problem?.detail).toMatch(/has expired/);
  });
});
