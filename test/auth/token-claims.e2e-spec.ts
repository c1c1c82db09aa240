import { sign } from 'jsonwebtoken';
import { withLowS } from '../../src/auth/keys/low-s';
import { CLOCK_TOLERANCE_SECONDS } from '../../src/auth/token-claims';
import { describeEachDatabase } from '../support/describe-databases';
import { bearer, http } from '../support/http';
import { appForBlock, TEST_KEY_ID, TEST_PRIVATE_KEY } from '../support/test-app';
import { TEST_AUDIENCE, TEST_ISSUER } from '../support/tokens';

const SHOPS = '/api/v1.0/shops';
const HOURS_48 = 48 * 3600;

/** A token signed with the service's own key, with exactly the claims given. */
function signedByTheService(changes: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    sub: '1',
    unique_name: 'claims-test',
    role: ['ApiUser'],
    shop_code: [],
    iat: now,
    nbf: now,
    exp: now + HOURS_48,
    jti: 'claims-test-jti',
    iss: TEST_ISSUER,
    aud: TEST_AUDIENCE,
    ...changes,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  const token = sign(claims, TEST_PRIVATE_KEY, {
    algorithm: 'ES256',
    keyid: TEST_KEY_ID,
    // jsonwebtoken adds an iat unless told not to, and then drops any given one.
    noTimestamp: claims.iat === undefined,
  });
  // As the service issues it: the claims, not the signature's form, are under test here.
  return withLowS(token);
}

describeEachDatabase(
  'Token claims are strict: a token signed by our key is still refused',
  (ctx) => {
    const api = appForBlock(ctx);

    const statusAndDetail = async (token: string) => {
      const res = await http(api.current.baseUrl, SHOPS, { headers: bearer(token) });
      if (res.status === 401) {
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      }
      return { status: res.status, detail: res.body?.detail as string | undefined };
    };

    it('should accept the token the service would issue (48 hours, every claim)', async () => {
      expect((await statusAndDetail(signedByTheService({}))).status).toBe(200);
    });

    it.each(['exp', 'iat', 'nbf', 'jti'])(
      'should answer 401 to a token without %s',
      async (claim) => {
        const { status, detail } = await statusAndDetail(
          signedByTheService({ [claim]: undefined }),
        );
        expect(status).toBe(401);
        expect(detail).toBe(
          `The token is invalid: it has no ${claim} (${DESCRIBED[claim]}) claim.`,
        );
      },
    );

    it('should answer 401 to a token valid for more than 48 hours (exp - iat)', async () => {
      const now = Math.floor(Date.now() / 1000);
      const tooLong = signedByTheService({ iat: now, nbf: now, exp: now + HOURS_48 + 1 });
      expect(await statusAndDetail(tooLong)).toEqual({
        status: 401,
        detail: 'The token is invalid: it is valid for more than 48 hours.',
      });
    });

    it(`should answer 401 to a token issued in the future, past the ${CLOCK_TOLERANCE_SECONDS} s clock tolerance`, async () => {
      const now = Math.floor(Date.now() / 1000);
      const ahead = now + CLOCK_TOLERANCE_SECONDS + 120;
      // nbf left at now, so only iat is in the future.
      const future = signedByTheService({ iat: ahead, nbf: now, exp: ahead + 3600 });
      expect(await statusAndDetail(future)).toEqual({
        status: 401,
        detail: 'The token is invalid: it was issued in the future.',
      });
    });

    it('should accept an iat a few seconds ahead, within the clock tolerance', async () => {
      const now = Math.floor(Date.now() / 1000);
      const ahead = now + Math.floor(CLOCK_TOLERANCE_SECONDS / 2);
      const skewed = signedByTheService({ iat: ahead, nbf: ahead, exp: ahead + 3600 });
      expect((await statusAndDetail(skewed)).status).toBe(200);
    });
  },
);

const DESCRIBED: Record<string, string> = {
  exp: 'expiry',
  iat: 'issued at',
  nbf: 'not before',
  jti: 'token id',
};
