import { sign } from 'jsonwebtoken';
import { request as httpRequest } from 'node:http';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser, grantShop, setEnabled } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { startTestApp, TestApp, TEST_KEY_ID, TEST_PRIVATE_KEY } from '../support/test-app';
import { forgeToken, newEcPrivateKey, publicKeyOf, unsignedToken } from '../support/tokens';

const SHOPS = '/api/v1.0/shops';
const PROBLEM = /^application\/problem\+json/;

describeEachDatabase('Bearer authentication of data routes', (ctx) => {
  let api: TestApp;
  let shopA: string;
  let shopB: string;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    shopA = await createShop(ctx.db.db);
    shopB = await createShop(ctx.db.db);
    const user = await createUser(ctx.db.db, { shops: [shopA] });
    userId = user.id;
    api = await startTestApp(ctx.db);
    token = await getToken(api.baseUrl, user.username, user.password);
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = (headers: Record<string, string> = {}, path = SHOPS) =>
    http(api.baseUrl, path, { headers });

  const expect401 = async (res: Awaited<ReturnType<typeof get>>, detail: RegExp) => {
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="pos-read-api"/);
    expect(res.headers.get('content-type')).toMatch(PROBLEM);
    expect(res.body).toMatchObject({ status: 401, title: 'Unauthorized', instance: SHOPS });
    expect(res.body.detail).toMatch(detail);
    expect(res.text).not.toMatch(/BEGIN|PRIVATE|signature|secret/i);
  };

  it('should let a valid token read GET /shops: exactly the shops of its claims', async () => {
    const res = await get(bearer(token));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [{ code: shopA, name: `Shop ${shopA}`, timeZone: 'Europe/Madrid', currency: 'EUR' }],
    });
  });

  describe('the Authorization header must be exactly "Bearer <token>"', () => {
    it('should answer 401 when the header is missing', async () => {
      await expect401(await get(), /missing/);
    });
    it('should answer 401 without the Bearer prefix (the raw token a misdeclared API key sends)', async () => {
      await expect401(await get({ Authorization: token }), /exactly "Bearer"/);
    });
    it('should answer 401 for another case of the prefix', async () => {
      await expect401(await get({ Authorization: `bearer ${token}` }), /exactly "Bearer"/);
      await expect401(await get({ Authorization: `BEARER ${token}` }), /exactly "Bearer"/);
    });
    it('should answer 401 for two spaces after Bearer', async () => {
      await expect401(await get({ Authorization: `Bearer  ${token}` }), /exactly "Bearer"/);
    });
    it('should answer 401 for trailing text after the token', async () => {
      await expect401(await get({ Authorization: `Bearer ${token} extra` }), /exactly "Bearer"/);
      await expect401(
        await get({ Authorization: `Bearer ${token},Bearer ${token}` }),
        /exactly "Bearer"/,
      );
    });
    it('should answer 401 for two Authorization headers, in either order, as for a malformed one', async () => {
      const basic = `Basic ${Buffer.from('a:b').toString('base64')}`;
      const malformed = await get({ Authorization: basic });
      for (const pair of [
        [`Bearer ${token}`, basic],
        [basic, `Bearer ${token}`],
        [`Bearer ${token}`, `Bearer ${token}`],
      ]) {
        const res = await getWithAuthorizations(api.baseUrl + SHOPS, pair);
        expect(res.status).toBe(401);
        expect(res.headers['content-type']).toMatch(PROBLEM);
        expect(res.headers['www-authenticate']).toBe(malformed.headers.get('www-authenticate'));
        expect(JSON.parse(res.body)).toEqual({ ...malformed.body, requestId: expect.any(String) });
      }
    });
    it('should answer 401 saying the token is malformed, not the header, for "Bearer" and one space then a word that is no token (issue 22)', async () => {
      for (const word of ['xx', 'a.b', 'a.b.c.d', `${token.slice(0, -1)}=`]) {
        const res = await get({ Authorization: `Bearer ${word}` });
        await expect401(res, /bearer token is malformed/);
        expect(res.body.detail).not.toMatch(/exactly "Bearer"/);
      }
    });
    it('should answer 401 saying "Bearer" was sent twice for a token pasted with its prefix (issue 46)', async () => {
      const res = await get({ Authorization: `Bearer Bearer ${token}` });
      await expect401(res, /^The Authorization header sends the word "Bearer" twice: /);
      expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    });
    it('should answer 401 for the prefix alone', async () => {
      await expect401(await get({ Authorization: 'Bearer ' }), /exactly "Bearer"/);
    });
    it('should answer 401 for another scheme', async () => {
      await expect401(
        await get({ Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }),
        /exactly "Bearer"/,
      );
    });
    it('should never accept a token in the query string', async () => {
      await expect401(await get({}, `${SHOPS}?access_token=${token}`), /missing/);
      const res = await get({}, `${SHOPS}?token=${token}`);
      expect(res.status).toBe(401);
    });
  });

  describe('attacks on the token itself', () => {
    it('should answer 401 for an expired token', async () => {
      const past = Math.floor(Date.now() / 1000) - 3600;
      const expired = forgeToken({ claims: { iat: past - 100, nbf: past - 100, exp: past } });
      await expect401(await get(bearer(expired)), /expired/);
    });
    it('should answer 401 for a tampered token (claims changed, signature kept)', async () => {
      const [header, payload, signature] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      claims.shop_code = [shopA, shopB];
      const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
      await expect401(await get(bearer(tampered)), /invalid/);
    });
    it('should answer 401 for a token with alg none', async () => {
      const now = Math.floor(Date.now() / 1000);
      const none = unsignedToken({
        sub: userId,
        unique_name: 'x',
        role: ['ApiUser'],
        shop_code: [shopB],
        iat: now,
        nbf: now,
        exp: now + 60,
        jti: 'j',
        iss: 'pos-read-api',
        aud: 'pos-read-api/v1.0',
      });
      await expect401(await get(bearer(none)), /invalid/);
    });
    it('should answer 401 for an HS256 token signed with the public key as secret', async () => {
      const hs = forgeToken({ algorithm: 'HS256', key: publicKeyOf(TEST_PRIVATE_KEY) });
      await expect401(await get(bearer(hs)), /invalid/);
    });
    it('should answer 401 for an unknown kid', async () => {
      const other = forgeToken({ key: newEcPrivateKey(), kid: 'someone-elses-key' });
      await expect401(await get(bearer(other)), /not signed by a key of this service/);
    });
    it('should answer 401 for a token without kid', async () => {
      const now = Math.floor(Date.now() / 1000);
      const noKid = sign(
        {
          sub: '1',
          unique_name: 'x',
          role: ['ApiUser'],
          shop_code: [],
          jti: 'j',
          iat: now,
          nbf: now,
          exp: now + 60,
          iss: 'pos-read-api',
          aud: 'pos-read-api/v1.0',
        },
        TEST_PRIVATE_KEY,
        { algorithm: 'ES256' },
      );
      await expect401(await get(bearer(noKid)), /invalid/);
    });
    it('should answer 401 for our kid on a token signed by another key', async () => {
      const forged = forgeToken({ key: newEcPrivateKey(), kid: TEST_KEY_ID });
      await expect401(await get(bearer(forged)), /invalid/);
    });
    it('should answer 401 for a wrong issuer', async () => {
      await expect401(await get(bearer(forgeToken({ claims: { iss: 'someone-else' } }))), /issuer/);
    });
    it('should answer 401 for a wrong audience', async () => {
      await expect401(
        await get(bearer(forgeToken({ claims: { aud: 'another-api' } }))),
        /audience/,
      );
    });
    it('should answer 401 for a token that is not valid yet (nbf in the future)', async () => {
      const future = Math.floor(Date.now() / 1000) + 3600;
      await expect401(await get(bearer(forgeToken({ claims: { nbf: future } }))), /not valid yet/);
    });
    it('should answer 401 for malformed claims (shop_code not an array)', async () => {
      await expect401(await get(bearer(forgeToken({ claims: { shop_code: shopB } }))), /malformed/);
    });
    it('should answer 401 for garbage that only looks like a JWT', async () => {
      await expect401(await get({ Authorization: 'Bearer aaaa.bbbb.cccc' }), /invalid/);
    });
  });

  it('should answer 403 for a valid token without the ApiUser role', async () => {
    const res = await get(
      bearer(forgeToken({ claims: { role: ['StoreManager'], shop_code: [shopA] } })),
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(PROBLEM);
    expect(res.body.detail).toMatch(/ApiUser/);
  });

  it('should not show a shop granted after issue in the old token (contract rule 5), only in a new one', async () => {
    const user = await createUser(ctx.db.db, { shops: [shopA] });
    const before = await getToken(api.baseUrl, user.username, user.password);
    await grantShop(ctx.db.db, user.id, shopB);
    const oldView = await get(bearer(before));
    expect(oldView.body.data.map((s: { code: string }) => s.code)).toEqual([shopA]);
    const after = await getToken(api.baseUrl, user.username, user.password);
    const newView = await get(bearer(after));
    expect(newView.body.data.map((s: { code: string }) => s.code)).toEqual([shopA, shopB].sort());
  });

  it("should keep a disabled user's token valid until it expires (contract rule 6), and refuse new tokens", async () => {
    const user = await createUser(ctx.db.db, { shops: [shopA] });
    const issued = await getToken(api.baseUrl, user.username, user.password);
    await setEnabled(ctx.db.db, user.id, false);
    expect((await get(bearer(issued))).status).toBe(200);
    const again = await http(api.baseUrl, '/api/v1.0/Token', {
      method: 'POST',
      json: { username: user.username, password: user.password },
    });
    expect(again.status).toBe(401);
  });

  it('should answer an unknown route with a 404 problem', async () => {
    const res = await get(bearer(token), '/api/v1.0/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(PROBLEM);
  });

  it('should echo a sane X-Request-Id and put it in problem bodies', async () => {
    const res = await get({ 'X-Request-Id': 'trace-123' });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    expect(res.body.requestId).toBe('trace-123');
    const generated = await get({ 'X-Request-Id': 'bad id with spaces' });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describeEachDatabase('Signing key rotation', (ctx) => {
  // passport keeps strategies in one process-wide registry: apps with different JWT settings are
  // started one after the other here, never side by side.
  it('should accept tokens of a retired key listed in JWT_PREVIOUS_PUBLIC_KEYS, and refuse them once it is removed', async () => {
    const oldKey = newEcPrivateKey();
    const oldToken = forgeToken({ key: oldKey, kid: 'retired-1' });
    const withRetired = await startTestApp(ctx.db, {
      JWT_PREVIOUS_PUBLIC_KEYS: JSON.stringify({ 'retired-1': publicKeyOf(oldKey) }),
    });
    try {
      const accepted = await http(withRetired.baseUrl, SHOPS, { headers: bearer(oldToken) });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({ data: [] });
    } finally {
      await withRetired.close();
    }
    const without = await startTestApp(ctx.db);
    try {
      expect((await http(without.baseUrl, SHOPS, { headers: bearer(oldToken) })).status).toBe(401);
    } finally {
      await without.close();
    }
  });
});

/** A GET with one Authorization line per value (fetch would join them into one line). */
function getWithAuthorizations(
  url: string,
  values: string[],
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { Authorization: values }, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.once('error', reject);
    req.end();
  });
}
