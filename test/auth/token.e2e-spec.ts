import { hash as bcryptHash } from 'bcrypt';
import { hash as argon2Hash, argon2id } from 'argon2';
import {
  makeAspNetV2Hash,
  makeAspNetV3Hash,
} from '../../src/auth/passwords/testing/aspnet-hash.fixture';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { http } from '../support/http';
import { startTestApp, TestApp, TEST_KEY_ID } from '../support/test-app';
import { decodeSegment } from '../support/tokens';

const TOKEN = '/api/v1.0/Token';
const PROBLEM = /^application\/problem\+json/;

describeEachDatabase('POST /api/v1.0/Token', (ctx) => {
  let api: TestApp;
  let shops: string[];

  beforeAll(async () => {
    shops = [await createShop(ctx.db.db), await createShop(ctx.db.db), await createShop(ctx.db.db)];
    api = await startTestApp(ctx.db, {
      LOGIN_MAX_FAILURES: '3',
      TOKEN_RATE_LIMIT_PER_MINUTE: '10000',
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const post = (json: unknown, headers: Record<string, string> = {}) =>
    http(api.baseUrl, TOKEN, { method: 'POST', json, headers });

  describe('issuing', () => {
    it('should answer 200 with a token and an expiration exactly 48 hours after issue, in UTC with Z', async () => {
      const user = await createUser(ctx.db.db, { shops: [shops[0]] });
      const before = Math.floor(Date.now() / 1000);
      const res = await post({ username: user.username, password: user.password });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['expiration', 'token']);
      expect(res.body.expiration).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      const claims = decodeSegment(res.body.token, 1);
      expect(claims.exp - claims.iat).toBe(48 * 3600);
      expect(claims.iat).toBeGreaterThanOrEqual(before);
      expect(Date.parse(res.body.expiration)).toBe(claims.exp * 1000);
    });

    it('should send Cache-Control: no-store with the token', async () => {
      const user = await createUser(ctx.db.db);
      const res = await post({ username: user.username, password: user.password });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('should sign with the pinned algorithm and kid, and carry iss, aud, sub, unique_name, role[] (ApiUser only, not the other back-office roles), shop_code[], iat, nbf, exp, jti', async () => {
      const user = await createUser(ctx.db.db, {
        roles: ['ApiUser', 'Cashier', 'Administrator'],
        shops: [shops[2], shops[0]],
      });
      const res = await post({ username: user.username, password: user.password });
      const header = decodeSegment(res.body.token, 0);
      const claims = decodeSegment(res.body.token, 1);
      expect(header).toEqual({ alg: 'ES256', typ: 'JWT', kid: TEST_KEY_ID });
      expect(claims).toEqual({
        sub: user.id,
        unique_name: user.username,
        role: ['ApiUser'],
        shop_code: [shops[0], shops[2]].sort(),
        iat: expect.any(Number),
        nbf: claims.iat,
        exp: claims.iat + 48 * 3600,
        jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
        iss: 'pos-read-api',
        aud: 'pos-read-api/v1.0',
      });
    });

    it('should give every token its own jti', async () => {
      const user = await createUser(ctx.db.db);
      const a = await post({ username: user.username, password: user.password });
      const b = await post({ username: user.username, password: user.password });
      expect(decodeSegment(a.body.token, 1).jti).not.toBe(decodeSegment(b.body.token, 1).jti);
    });

    it('should put an empty shop_code array in the token of a user without shop grants', async () => {
      const user = await createUser(ctx.db.db, { shops: [] });
      const res = await post({ username: user.username, password: user.password });
      expect(decodeSegment(res.body.token, 1).shop_code).toEqual([]);
    });

    it('should match usernames case-insensitively, as the back-office does', async () => {
      const user = await createUser(ctx.db.db, { username: 'MixedCaseUser' });
      const res = await post({ username: 'mixedcaseUSER', password: user.password });
      expect(res.status).toBe(200);
      expect(decodeSegment(res.body.token, 1).unique_name).toBe('MixedCaseUser');
    });
  });

  describe('refusals', () => {
    const comparable = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });

    it('should answer 401 with the same body for a wrong password, an unknown user and a disabled user', async () => {
      const user = await createUser(ctx.db.db);
      const disabled = await createUser(ctx.db.db, { enabled: false });
      const wrong = await post({ username: user.username, password: 'not-the-password' });
      const unknown = await post({ username: 'nobody-at-all', password: 'whatever' });
      const off = await post({ username: disabled.username, password: disabled.password });
      for (const res of [wrong, unknown, off]) {
        expect(res.status).toBe(401);
        expect(res.headers.get('content-type')).toMatch(PROBLEM);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
      expect(comparable(unknown.body)).toEqual(comparable(wrong.body));
      expect(comparable(off.body)).toEqual(comparable(wrong.body));
      expect(wrong.body).toMatchObject({ status: 401, title: 'Unauthorized', instance: TOKEN });
    });

    it('should answer 403 for valid credentials of a user without the ApiUser role', async () => {
      const user = await createUser(ctx.db.db, { roles: ['StoreManager'], shops: [shops[0]] });
      const res = await post({ username: user.username, password: user.password });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(PROBLEM);
      expect(res.body.detail).toMatch(/ApiUser/);
    });
  });

  describe('lockout', () => {
    it('should lock a username after LOGIN_MAX_FAILURES failures: 429 with Retry-After, even with the right password', async () => {
      const user = await createUser(ctx.db.db);
      for (let i = 0; i < 3; i++) {
        expect((await post({ username: user.username, password: 'wrong' })).status).toBe(401);
      }
      const locked = await post({ username: user.username, password: user.password });
      expect(locked.status).toBe(429);
      expect(locked.headers.get('content-type')).toMatch(PROBLEM);
      const retryAfter = Number(locked.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    });

    it('should lock a username that does not exist the same way', async () => {
      for (let i = 0; i < 3; i++) {
        expect((await post({ username: 'ghost-user', password: 'guess' })).status).toBe(401);
      }
      expect((await post({ username: 'GHOST-user', password: 'guess' })).status).toBe(429);
    });

    it('should reset the failure count after a success', async () => {
      const user = await createUser(ctx.db.db);
      for (let i = 0; i < 2; i++) await post({ username: user.username, password: 'wrong' });
      expect((await post({ username: user.username, password: user.password })).status).toBe(200);
      for (let i = 0; i < 2; i++) {
        expect((await post({ username: user.username, password: 'wrong' })).status).toBe(401);
      }
      expect((await post({ username: user.username, password: user.password })).status).toBe(200);
    });

    it('should share the failure state between instances (database table)', async () => {
      const other = await startTestApp(ctx.db, {
        LOGIN_MAX_FAILURES: '3',
        TOKEN_RATE_LIMIT_PER_MINUTE: '10000',
      });
      try {
        const user = await createUser(ctx.db.db);
        await post({ username: user.username, password: 'wrong' });
        await http(other.baseUrl, TOKEN, {
          method: 'POST',
          json: { username: user.username, password: 'wrong' },
        });
        await post({ username: user.username, password: 'wrong' });
        const res = await http(other.baseUrl, TOKEN, {
          method: 'POST',
          json: { username: user.username, password: user.password },
        });
        expect(res.status).toBe(429);
      } finally {
        await other.close();
      }
    });

    it('should not let a burst of parallel guesses slip past the limit', async () => {
      const user = await createUser(ctx.db.db);
      await Promise.all(
        Array.from({ length: 8 }, () => post({ username: user.username, password: 'wrong' })),
      );
      expect((await post({ username: user.username, password: user.password })).status).toBe(429);
    });
  });

  describe('password formats of the back-office', () => {
    const formats: Array<[string, (pw: string) => Promise<string>]> = [
      ['bcrypt $2a$', async (pw) => (await bcryptHash(pw, 4)).replace(/^\$2b\$/, '$2a$')],
      ['bcrypt $2b$', (pw) => bcryptHash(pw, 4)],
      ['bcrypt $2y$', async (pw) => (await bcryptHash(pw, 4)).replace(/^\$2b\$/, '$2y$')],
      ['argon2id', (pw) => argon2Hash(pw, { type: argon2id })],
      [
        'ASP.NET Core Identity v3, HMAC-SHA1',
        async (pw) => makeAspNetV3Hash(pw, { prf: 0, iterations: 1000 }),
      ],
      [
        'ASP.NET Core Identity v3, HMAC-SHA256',
        async (pw) => makeAspNetV3Hash(pw, { prf: 1, iterations: 10000 }),
      ],
      [
        'ASP.NET Core Identity v3, HMAC-SHA512',
        async (pw) => makeAspNetV3Hash(pw, { prf: 2, iterations: 100000 }),
      ],
      ['ASP.NET Identity v2', async (pw) => makeAspNetV2Hash(pw)],
    ];
    it.each(formats)(
      'should issue a token for a user whose hash is %s, and refuse a wrong password',
      async (_name, make) => {
        const password = 'Correct horse battery staple';
        const user = await createUser(ctx.db.db, { password, passwordHash: await make(password) });
        expect((await post({ username: user.username, password })).status).toBe(200);
        expect(
          (await post({ username: user.username, password: 'Correct horse battery stapl' })).status,
        ).toBe(401);
      },
    );

    it('should refuse a user whose hash is in an unknown format as a wrong password', async () => {
      const user = await createUser(ctx.db.db, { password: 'plain', passwordHash: 'plain' });
      expect((await post({ username: user.username, password: 'plain' })).status).toBe(401);
    });
  });

  describe('bad input is a 4xx problem, never a 500', () => {
    const raw = (body: string, contentType = 'application/json') =>
      http(api.baseUrl, TOKEN, { method: 'POST', body, headers: { 'Content-Type': contentType } });

    it.each([
      ['malformed JSON', () => raw('{"username": "a", "password": '), 400],
      ['an empty body', () => raw(''), 400],
      ['a JSON array', () => raw('[{"username":"a","password":"b"}]'), 400],
      ['JSON null', () => raw('null'), 400],
      ['a wrong content type', () => raw('username=a&password=b', 'text/plain'), 415],
      ['a form body', () => raw('username=a&password=b', 'application/x-www-form-urlencoded'), 415],
      [
        'a body over 16 KiB',
        () => raw(JSON.stringify({ username: 'a', password: 'x'.repeat(17 * 1024) })),
        413,
      ],
    ])('should answer %s with a problem', async (_name, send, status) => {
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(PROBLEM);
      expect(res.body).toMatchObject({
        status,
        type: expect.any(String),
        title: expect.any(String),
        detail: expect.any(String),
      });
      expect(res.text).not.toMatch(/at \w+ \(|stack|SELECT|INSERT/i);
    });

    it.each([
      ['a missing password', { username: 'a' }, 'password'],
      ['a missing username', { password: 'a' }, 'username'],
      [
        'an object where the username belongs (login-bypass probe)',
        { username: { $ne: null }, password: 'x' },
        'username',
      ],
      ['an array where the password belongs', { username: 'a', password: ['x'] }, 'password'],
      ['a number where the password belongs', { username: 'a', password: 12345 }, 'password'],
      ['an empty username', { username: '', password: 'x' }, 'username'],
      ['an unknown field', { username: 'a', password: 'b', role: 'ApiUser' }, 'role'],
    ])('should answer %s with 400 naming the field', async (_name, json, field) => {
      const res = await post(json);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(PROBLEM);
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });
  });
});

describeEachDatabase('POST /api/v1.0/Token per-client-IP limit', (ctx) => {
  it('should answer 429 with Retry-After past TOKEN_RATE_LIMIT_PER_MINUTE calls from one address', async () => {
    const api = await startTestApp(ctx.db, { TOKEN_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const calls = [];
      for (let i = 0; i < 4; i++) {
        calls.push(
          await http(api.baseUrl, TOKEN, {
            method: 'POST',
            json: { username: `ip${i}`, password: 'x' },
          }),
        );
      }
      expect(calls.slice(0, 3).map((r) => r.status)).toEqual([401, 401, 401]);
      expect(calls[3].status).toBe(429);
      expect(calls[3].headers.get('content-type')).toMatch(PROBLEM);
      expect(Number(calls[3].headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await api.close();
    }
  });

  it.each([
    ['1', 'one proxy hop'],
    ['127.0.0.1,::1', 'the proxy addresses'],
    ['127.0.0.0/8', 'the proxy CIDR range'],
  ])(
    'should count by the address the trusted proxy saw with TRUST_PROXY=%s (%s), whatever a client prepends to X-Forwarded-For',
    async (trustProxy) => {
      // The test's socket (127.0.0.1) plays the proxy, which appends the address it saw.
      const api = await startTestApp(ctx.db, {
        TOKEN_RATE_LIMIT_PER_MINUTE: '2',
        TRUST_PROXY: trustProxy,
      });
      try {
        let n = 0;
        const call = (forwardedFor: string) =>
          http(api.baseUrl, TOKEN, {
            method: 'POST',
            json: { username: `hop-${++n}`, password: 'x' },
            headers: { 'X-Forwarded-For': forwardedFor },
          });
        const dodging = [
          await call('198.51.100.1, 203.0.113.9'),
          await call('198.51.100.2, 203.0.113.9'),
          await call('198.51.100.3, 192.0.2.1, 203.0.113.9'),
        ];
        expect(dodging.map((r) => r.status)).toEqual([401, 401, 429]);
        // Another client behind the same proxy has a counter of its own.
        expect((await call('198.51.100.1, 203.0.113.10')).status).toBe(401);
      } finally {
        await api.close();
      }
    },
  );

  it('should count by X-Forwarded-For only when TRUST_PROXY is on', async () => {
    const trusting = await startTestApp(ctx.db, {
      TOKEN_RATE_LIMIT_PER_MINUTE: '2',
      TRUST_PROXY: 'true',
    });
    const notTrusting = await startTestApp(ctx.db, {
      TOKEN_RATE_LIMIT_PER_MINUTE: '2',
      TRUST_PROXY: 'false',
    });
    try {
      let n = 0;
      const call = (base: string, ip: string) =>
        http(base, TOKEN, {
          method: 'POST',
          json: { username: `xff-${++n}`, password: 'x' },
          headers: { 'X-Forwarded-For': ip },
        });
      // Trusted: three different clients are three different counters.
      const trusted = [
        await call(trusting.baseUrl, '203.0.113.1'),
        await call(trusting.baseUrl, '203.0.113.2'),
        await call(trusting.baseUrl, '203.0.113.3'),
      ];
      expect(trusted.map((r) => r.status)).toEqual([401, 401, 401]);
      // Not trusted: the header is ignored and the third call from this socket is limited.
      const ignored = [
        await call(notTrusting.baseUrl, '203.0.113.1'),
        await call(notTrusting.baseUrl, '203.0.113.2'),
        await call(notTrusting.baseUrl, '203.0.113.3'),
      ];
      expect(ignored.map((r) => r.status)).toEqual([401, 401, 429]);
    } finally {
      await trusting.close();
      await notTrusting.close();
    }
  });
});
