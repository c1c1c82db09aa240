import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { httpContext } from '../common/testing/http-context';
import { API_USER_ROLE, Caller, CallerClaims, callerFromClaims } from './caller';

/** The claims of a token the service issues (token.service.ts). */
const issued = {
  sub: '42',
  unique_name: 'maria',
  role: [API_USER_ROLE],
  shop_code: ['SHOP001', 'SHOP002'],
  jti: '0f8e5e53-7c1a-4c38-9a84-2f0c2b1d6e11',
  iat: 1_767_600_000,
};

/** What Nest runs to hand a handler its `@Caller()` argument. */
function callerArgument(request: object): CallerClaims {
  class Handlers {
    route(@Caller() caller: CallerClaims): CallerClaims {
      return caller;
    }
  }
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, Handlers, 'route') as Record<
    string,
    { factory: (data: unknown, context: unknown) => CallerClaims }
  >;
  const [{ factory }] = Object.values(args);
  return factory(undefined, httpContext(request));
}

describe(callerFromClaims.name, () => {
  it('should read the caller of the claims the service issues', () => {
    expect(callerFromClaims(issued)).toEqual({
      userId: '42',
      username: 'maria',
      roles: ['ApiUser'],
      shopCodes: ['SHOP001', 'SHOP002'],
      tokenId: '0f8e5e53-7c1a-4c38-9a84-2f0c2b1d6e11',
    });
    expect(callerFromClaims({ ...issued, role: [], shop_code: [] })).toMatchObject({
      roles: [],
      shopCodes: [],
    });
  });

  it.each([
    ['sub', 42],
    ['sub', undefined],
    ['unique_name', null],
    ['role', 'ApiUser'],
    ['role', ['ApiUser', 7]],
    ['shop_code', 'SHOP001'],
    ['shop_code', ['SHOP001', { code: 'SHOP002' }]],
    ['shop_code', undefined],
    ['jti', 1],
  ])('should refuse claims whose %s is %p', (claim, value) => {
    expect(callerFromClaims({ ...issued, [claim]: value })).toBeNull();
  });
});

describe('@Caller()', () => {
  it('should hand the handler the caller the bearer guard verified', () => {
    const user = callerFromClaims(issued) as CallerClaims;
    expect(callerArgument({ user })).toBe(user);
  });

  it('should fail loudly on a route that no guard authenticated', () => {
    expect(() => callerArgument({})).toThrow('Caller used on a route without authentication');
  });
});
