import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { appForBlock } from '../support/test-app';
import { forgeToken } from '../support/tokens';

// Sign-ins (argon2) and several requests each: slow on a loaded machine.
jest.setTimeout(60_000);

const SHOPS = '/api/v1.0/shops';
/** Order of P-256: (r, s) and (r, n − s) are both valid ECDSA signatures of one message. */
const N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

const sOf = (token: string): bigint =>
  BigInt(`0x${Buffer.from(token.split('.')[2], 'base64url').subarray(32).toString('hex')}`);

/** The same token with the other half's s: a second encoding that ECDSA alone accepts. */
function otherHalf(token: string): string {
  const [header, payload, signature] = token.split('.');
  const bytes = Buffer.from(signature, 'base64url');
  const s = (N - sOf(token)).toString(16).padStart(64, '0');
  const swapped = Buffer.concat([bytes.subarray(0, 32), Buffer.from(s, 'hex')]);
  return `${header}.${payload}.${swapped.toString('base64url')}`;
}

/**
 * A token has exactly one valid encoding (low-s ES256), and it is refused from its `exp` on
 * (contract: once 48 hours have passed, 401), while `nbf`/`iat` keep a small clock tolerance.
 */
describeEachDatabase('Tokens: one encoding, no leeway on expiry', (ctx) => {
  const app = appForBlock(ctx, { LOGIN_MIN_RESPONSE_MS: '0' });
  const get = (token: string) => http(app.current.baseUrl, SHOPS, { headers: bearer(token) });
  const now = () => Math.floor(Date.now() / 1000);

  it('should issue every ES256 token with the low-s form of its signature', async () => {
    const user = await createUser(ctx.db.db, { shops: [await createShop(ctx.db.db)] });
    const tokens = [];
    // Node's ECDSA picks either half at random: 16 tokens all low by chance is 1 in 65,536.
    for (let i = 0; i < 16; i++) {
      tokens.push(await getToken(app.current.baseUrl, user.username, user.password));
    }
    for (const token of tokens) {
      expect(sOf(token) <= N / 2n).toBe(true);
      expect((await get(token)).status).toBe(200);
    }
  });

  it('should refuse the high-s twin of a valid token with 401', async () => {
    const user = await createUser(ctx.db.db);
    const token = await getToken(app.current.baseUrl, user.username, user.password);
    const twin = otherHalf(token);
    expect(twin).not.toBe(token);
    const res = await get(twin);
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/^The token is invalid/);
  });

  it('should answer 401 to a token whose exp passed 20 seconds ago', async () => {
    const exp = now() - 20;
    const token = forgeToken({ claims: { iat: exp - 3600, nbf: exp - 3600, exp } });
    const res = await get(token);
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/expired/);
  });

  it('should still accept a token whose nbf and iat are 20 seconds ahead (clocks of instances)', async () => {
    const ahead = now() + 20;
    const token = forgeToken({ claims: { iat: ahead, nbf: ahead, exp: ahead + 3600 } });
    expect((await get(token)).status).toBe(200);
  });
});
