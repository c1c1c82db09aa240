import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { COMPRESSION_THRESHOLD_BYTES } from '../../src/common/http/compression';
import { HEADERS_FIRST_MIN_RECORDS } from '../../src/common/http/headers-first';
import { REPORT } from '../reports/report-fixtures';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { getToken } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { OpsApp, sample, startOpsApp } from '../operations/support/management';
import { decodedBody, NODE_HAS_ZSTD, WireResponse, wireRequest } from './support/encoded-http';

jest.setTimeout(60_000);

const PERIOD = 'From=2026-04-01&To=2026-04-04';

/**
 * Every route that answers JSON or CSV (the token's POST is checked on its own). Bodies under the
 * threshold (the shops of this test, a problem) must come back identical and uncompressed.
 */
const ROUTES: Array<{ name: string; path: string; accept?: string }> = [
  { name: 'sales', path: `/api/v1.0/sales?${PERIOD}` },
  { name: 'payments', path: `/api/v1.0/payments?${PERIOD}` },
  { name: 'cash movements', path: `/api/v1.0/cash-movements?${PERIOD}` },
  { name: 'shops', path: '/api/v1.0/shops' },
  { name: 'report, JSON', path: `${REPORT}?${PERIOD}` },
  { name: 'report, CSV', path: `${REPORT}?${PERIOD}`, accept: 'text/csv' },
  { name: 'OpenAPI document', path: '/docs/openapi.json' },
  { name: 'a 400 problem', path: '/api/v1.0/sales?Limit=0' },
  { name: 'the developer portal page', path: '/docs' },
];

const ENCODINGS = NODE_HAS_ZSTD ? ['gzip', 'br', 'zstd'] : ['gzip', 'br'];

const varyOf = (response: WireResponse): string[] =>
  String(response.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);

describeEachDatabase('Compressed responses', (ctx) => {
  let api: OpsApp;
  let token: string;
  // A second caller for the last report call: the report allows 12 calls a minute per user, and
  // the checks above already spend 12 of the first user's where Node has zstd.
  let reportToken: string;
  let user: { username: string; password: string };
  // One request id for every call: a problem's `instance` names it, and bodies are compared.
  const get = (path: string, headers: Record<string, string> = {}): Promise<WireResponse> =>
    wireRequest(`${api.baseUrl}${path}`, {
      Authorization: `Bearer ${token}`,
      'X-Request-Id': 'compression-spec',
      ...headers,
    });

  beforeAll(async () => {
    const seeded = await seedBusinessData(ctx.db.db, {
      seed: 17,
      shops: 2,
      days: 3,
      salesPerDay: 60,
      startDate: '2026-04-01',
    });
    user = await createUser(ctx.db.db, { shops: seeded.shopCodes });
    api = await startOpsApp(ctx.db);
    token = await getToken(api.baseUrl, user.username, user.password);
    const second = await createUser(ctx.db.db, { shops: seeded.shopCodes });
    reportToken = await getToken(api.baseUrl, second.username, second.password);
  });

  afterAll(async () => {
    await api?.close();
  });

  describe.each(ROUTES)('$name', ({ path, accept }) => {
    const base: Record<string, string> = accept ? { Accept: accept } : {};
    let plain: WireResponse;

    beforeAll(async () => {
      plain = await get(path, base);
    });

    it('should answer a client that sends no Accept-Encoding with the identity body, and Vary: Accept-Encoding', () => {
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(varyOf(plain)).toContain('accept-encoding');
    });

    it.each(ENCODINGS)(
      'should answer Accept-Encoding: %s with a body that decodes to exactly the identity body (compressed above the threshold)',
      async (encoding) => {
        const encoded = await get(path, { ...base, 'Accept-Encoding': encoding });
        expect(encoded.status).toBe(plain.status);
        expect(encoded.headers['content-type']).toBe(plain.headers['content-type']);
        expect(varyOf(encoded)).toContain('accept-encoding');
        expect(decodedBody(encoded).equals(plain.body)).toBe(true);
        if (plain.body.length >= COMPRESSION_THRESHOLD_BYTES) {
          expect(encoded.headers['content-encoding']).toBe(encoding);
          expect(encoded.body.length).toBeLessThan(plain.body.length);
        } else {
          expect(encoded.headers['content-encoding']).toBeUndefined();
        }
      },
    );
  });

  it('should send a page of sales and the report in at most a fifth of their bytes with gzip', async () => {
    for (const { path, accept } of ROUTES.slice(0, 6)) {
      if (path.endsWith('/shops')) continue;
      const headers: Record<string, string> = accept ? { Accept: accept } : {};
      const plain = await get(path, headers);
      const gzip = await get(path, { ...headers, 'Accept-Encoding': 'gzip' });
      expect([path, plain.status, gzip.status]).toEqual([path, 200, 200]);
      expect(plain.body.length).toBeGreaterThan(10 * COMPRESSION_THRESHOLD_BYTES);
      expect(gzip.body.length).toBeLessThanOrEqual(plain.body.length / 5);
    }
  });

  it('should follow the q-values of Accept-Encoding', async () => {
    const path = `/api/v1.0/sales?${PERIOD}`;
    const chosen = async (acceptEncoding: string) =>
      (await get(path, { 'Accept-Encoding': acceptEncoding })).headers['content-encoding'];
    await expect(chosen('gzip;q=1, br;q=0.5')).resolves.toBe('gzip');
    await expect(chosen('gzip;q=0.4, br;q=0.8')).resolves.toBe('br');
    await expect(chosen('br;q=0, gzip')).resolves.toBe('gzip');
    await expect(chosen('gzip;q=0, br;q=0')).resolves.toBeUndefined();
  });

  it.each([
    'sales',
    'payments',
    'cash-movements',
    'sales/feed',
    'payments/feed',
    'cash-movements/feed',
  ])(
    'should send a compressed %s page that has a next one headers first (chunked), decoding to the identity body',
    async (resource) => {
      const query = resource.endsWith('/feed') ? '' : `${PERIOD}&`;
      const path = `/api/v1.0/${resource}?${query}Limit=${HEADERS_FIRST_MIN_RECORDS}`;
      const plain = await get(path);
      expect(plain.status).toBe(200);
      expect(plain.headers.link).toEqual(expect.stringContaining('rel="next"'));
      // The smallest page that goes headers first is past the threshold for every record kind.
      expect(plain.body.length).toBeGreaterThanOrEqual(COMPRESSION_THRESHOLD_BYTES);
      expect(plain.headers['content-length']).toBe(String(plain.body.length));
      for (const encoding of ENCODINGS) {
        const encoded = await get(path, { 'Accept-Encoding': encoding });
        expect([encoding, encoded.status]).toEqual([encoding, 200]);
        expect(encoded.headers['content-encoding']).toBe(encoding);
        expect(encoded.headers['transfer-encoding']).toBe('chunked');
        expect(encoded.headers['content-length']).toBeUndefined();
        expect(encoded.headers.link).toBe(plain.headers.link);
        expect(encoded.headers['cache-control']).toBe('no-store');
        expect(encoded.headers['x-request-id']).toBe('compression-spec');
        expect(decodedBody(encoded).equals(plain.body)).toBe(true);
      }
    },
  );

  it('should answer identity when no encoding the client accepts is one the service speaks', async () => {
    for (const acceptEncoding of ['compress', 'identity', 'x-unknown;q=1', '']) {
      const response = await get(`/api/v1.0/sales?${PERIOD}`, {
        'Accept-Encoding': acceptEncoding,
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(response.body.toString('utf8'))).toMatchObject({ data: expect.any(Array) });
    }
  });

  it(`should ${NODE_HAS_ZSTD ? '' : 'not '}offer zstd on this Node (${process.version})`, async () => {
    const response = await get(`/api/v1.0/sales?${PERIOD}`, { 'Accept-Encoding': 'zstd' });
    expect(response.headers['content-encoding']).toBe(NODE_HAS_ZSTD ? 'zstd' : undefined);
    const preferred = await get(`/api/v1.0/sales?${PERIOD}`, {
      'Accept-Encoding': 'gzip, br, zstd',
    });
    expect(preferred.headers['content-encoding']).toBe(NODE_HAS_ZSTD ? 'zstd' : 'br');
  });

  it('should leave bodies under the threshold uncompressed: the token and a 401 problem', async () => {
    const tokenResponse = await wireRequest(
      `${api.baseUrl}/api/v1.0/Token`,
      { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip, br' },
      {
        method: 'POST',
        body: JSON.stringify({ username: user.username, password: user.password }),
      },
    );
    expect(tokenResponse.status).toBe(200);
    expect(tokenResponse.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(tokenResponse.body.toString('utf8'))).toHaveProperty('token');
    const problem = await wireRequest(`${api.baseUrl}/api/v1.0/sales`, {
      'Accept-Encoding': 'gzip',
    });
    expect(problem.status).toBe(401);
    expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(problem.headers['content-encoding']).toBeUndefined();
  });

  it('should leave the management port uncompressed, its metrics counting compressed responses', async () => {
    const route = '/api/v1.0/cash-movements';
    const served = async (): Promise<number> => {
      const metrics = await wireRequest(`${api.managementUrl}/metrics`, {
        'Accept-Encoding': 'gzip, br',
      });
      expect(metrics.status).toBe(200);
      expect(metrics.headers['content-encoding']).toBeUndefined();
      const text = metrics.body.toString('utf8');
      return sample(text, 'pos_api_http_requests_total', { method: 'GET', route, status: '200' });
    };
    const before = await served();
    for (const encoding of ['gzip', 'br', '']) {
      const response = await get(`${route}?${PERIOD}`, { 'Accept-Encoding': encoding });
      expect(response.status).toBe(200);
    }
    expect((await served()) - before).toBe(3);
    const live = await wireRequest(`${api.managementUrl}/health/live`, {
      'Accept-Encoding': 'gzip',
    });
    expect(live.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(live.body.toString('utf8'))).toMatchObject({ status: 'ok' });
  });

  it('should keep Vary: Accept on the report beside Accept-Encoding', async () => {
    const response = await get(`${REPORT}?${PERIOD}`, {
      'Accept-Encoding': 'gzip',
      Authorization: `Bearer ${reportToken}`,
    });
    expect(response.status).toBe(200);
    expect(varyOf(response)).toEqual(expect.arrayContaining(['accept', 'accept-encoding']));
  });
});

describeEachDatabase('COMPRESSION=off', (ctx) => {
  let api: TestApp;

  beforeAll(async () => {
    await seedBusinessData(ctx.db.db, {
      seed: 18,
      shops: 1,
      days: 2,
      salesPerDay: 60,
      startDate: '2026-04-01',
    });
    api = await startTestApp(ctx.db, { COMPRESSION: 'off' });
  });

  afterAll(async () => {
    await api?.close();
  });

  it('should never compress, whatever the client accepts (a proxy in front compresses)', async () => {
    const { forgeToken } = await import('../support/tokens');
    const token = forgeToken({ claims: { shop_code: ['SHOP001'] } });
    const response = await wireRequest(`${api.baseUrl}/api/v1.0/sales?${PERIOD}`, {
      Authorization: `Bearer ${token}`,
      'Accept-Encoding': 'gzip, br, zstd',
    });
    expect(response.status).toBe(200);
    expect(response.body.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(varyOf(response)).not.toContain('accept-encoding');
  });
});
