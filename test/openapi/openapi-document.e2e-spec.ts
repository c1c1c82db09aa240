import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LOCAL_DATE_TIME_PATTERN, parseLocalDateTime } from '../../src/common/local-date-time';
import { PAGE_PARAMETERS } from '../../src/sync/paging/page-query';
import { CASH_MOVEMENT_EXAMPLE } from '../../src/cash-movements/cash-movement.dto';
import { COMMITTED_DOCUMENT, serializeDocument } from '../../tools/openapi/openapi.cli';
import { PAYMENT_EXAMPLE } from '../../src/payments/payment.dto';
import { REPORT_PARAMETERS } from '../../src/reports/report-query';
import { REPORT_COLUMNS } from '../../src/reports/transaction-detail.row';
import { SALE_EXAMPLE } from '../../src/sales/sale.dto';
import { SHOP_EXAMPLE } from '../../src/shops/dto/shop.example';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { forgeToken } from '../support/tokens';
import { createRecordedApp, RouteSeen } from './openapi-app';

// The document does not depend on the database: these specs run on the embedded SQLite only.

type Json = Record<string, any>;
const CURSOR_ROUTES = ['/api/v1.0/sales', '/api/v1.0/payments', '/api/v1.0/cash-movements'];
const TOKEN = '/api/v1.0/Token';
const REPORT = '/api/v1.0/TransactionDetailReport';

async function served(app: NestFastifyApplication): Promise<{ status: number; text: string }> {
  const res = await app.getHttpAdapter().getInstance().inject({ url: '/docs/openapi.json' });
  return { status: res.statusCode, text: res.body };
}

function operations(doc: Json): Array<{ path: string; method: string; op: Json }> {
  return Object.entries(doc.paths as Json).flatMap(([p, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({ path: p, method, op: op as Json })),
  );
}

/** The first line where the committed text and the generated one differ, or null. */
function firstDifference(committed: string, generated: string): string | null {
  if (committed === generated) return null;
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at])}, code ${JSON.stringify(b[at])}`;
}

describe('The OpenAPI document (contract Authentication rule 2)', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let routes: RouteSeen[];
  let doc: Json;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    ({ app, routes } = await createRecordedApp(database));
    doc = JSON.parse((await served(app)).text);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('should be served at /docs/openapi.json without a token, as OpenAPI 3', async () => {
    const res = await app.getHttpAdapter().getInstance().inject({ url: '/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(doc.openapi).toMatch(/^3\.0\.\d$/);
  });

  it('should serve the portal page and every file it loads from the service itself, with no token', async () => {
    const fastify = app.getHttpAdapter().getInstance();
    const html = await fastify.inject({ url: '/docs' });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['content-security-policy']).toMatch(
      /default-src 'none'; script-src 'self'/,
    );
    const files = [...html.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(files).toEqual(
      expect.arrayContaining([
        '/docs/swagger-ui-bundle.js',
        '/docs/swagger-ui.css',
        '/docs/portal.js',
      ]),
    );
    for (const file of files) {
      expect(file).toMatch(/^\/docs\//);
      const res = await fastify.inject({ url: file });
      expect({ file, status: res.statusCode }).toEqual({ file, status: 200 });
      expect(res.rawPayload.length).toBeGreaterThan(100);
    }
  });

  it('should equal the committed docs/openapi.json (else run `npm run openapi` and commit it)', () => {
    const committed = readFileSync(path.join(__dirname, '../..', COMMITTED_DOCUMENT), 'utf8');
    expect(firstDifference(committed, serializeDocument(doc))).toBeNull();
  });

  it('should be the same document in production (the mode changes the portal, not the document)', async () => {
    const production = await createRecordedApp(database, 'production');
    try {
      expect(JSON.parse((await served(production.app)).text)).toEqual(doc);
    } finally {
      await production.app.close();
    }
  });

  it('should describe every route of the API, and no other', () => {
    const apiRoutes = routes
      .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD')
      .map((r) => `${r.method.toLowerCase()} ${r.url}`)
      .sort();
    const documented = operations(doc)
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    expect(apiRoutes.length).toBeGreaterThanOrEqual(5);
    expect(documented).toEqual(apiRoutes);
  });

  it('should declare HTTP bearer authentication (not an API key), so generated clients send the Bearer prefix', () => {
    expect(doc.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    });
    expect(JSON.stringify(doc)).not.toMatch(/"type":\s*"apiKey"/);
  });

  it('should require the bearer token on every operation but POST /Token, which has security: []', () => {
    expect(doc.security).toEqual([{ bearer: [] }]);
    for (const { path: p, method, op } of operations(doc)) {
      const effective = op.security ?? doc.security;
      if (p === TOKEN)
        expect({ p, method, security: effective }).toEqual({ p, method, security: [] });
      else expect({ p, security: effective }).toEqual({ p, security: [{ bearer: [] }] });
    }
  });

  it('should give every operation an operationId, a summary, a description and a defined tag', () => {
    const tags = (doc.tags as Json[]).map((t) => t.name);
    const ids = operations(doc).map(({ op }) => {
      expect(op).toEqual(
        expect.objectContaining({
          operationId: expect.any(String),
          summary: expect.any(String),
          description: expect.any(String),
        }),
      );
      expect(tags).toEqual(expect.arrayContaining(op.tags));
      return op.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('should document the query parameters of the cursor endpoints with the contract names, formats and bounds', () => {
    for (const route of CURSOR_ROUTES) {
      const params = doc.paths[route].get.parameters as Json[];
      const byName = Object.fromEntries(params.map((p) => [p.name, p]));
      expect(params.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
        'query:ShopCode:false',
        'query:From:false',
        'query:To:false',
        'query:BusinessDateFrom:false',
        'query:BusinessDateTo:false',
        'query:Cursor:false',
        'query:Limit:false',
      ]);
      expect(byName.ShopCode.schema).toEqual({ type: 'string', minLength: 1, maxLength: 64 });
      for (const name of ['From', 'To']) {
        expect(byName[name].schema).toEqual({
          type: 'string',
          pattern: LOCAL_DATE_TIME_PATTERN,
          maxLength: 29,
        });
        expect(byName[name].description).toMatch(/without\*\* zone designator/);
      }
      expect(byName.Cursor.schema).toEqual({ type: 'string', maxLength: 1024 });
      expect(byName.Limit.schema).toEqual({
        type: 'integer',
        minimum: 1,
        maximum: 500,
        default: 500,
      });
      for (const p of params) expect(p.description).toMatch(/match case-insensitively/);
    }
  });

  it('should name the parameters exactly as the code reads them (cursor endpoints and the report)', () => {
    const names = (route: string) => doc.paths[route].get.parameters.map((p: Json) => p.name);
    for (const route of CURSOR_ROUTES) expect(names(route)).toEqual([...PAGE_PARAMETERS]);
    expect(names(REPORT)).toEqual([...REPORT_PARAMETERS]);
    // From and To, or BusinessDateFrom and BusinessDateTo: a pair is required, neither alone.
    const required = doc.paths[REPORT].get.parameters.filter((p: Json) => p.required);
    expect(required.map((p: Json) => p.name)).toEqual([]);
    for (const p of doc.paths[REPORT].get.parameters.slice(1)) {
      expect(p.description).toMatch(/unless by business date|instead of From and To/);
    }
  });

  it('should give From and To a pattern that accepts exactly the shapes the service parses', () => {
    const pattern = new RegExp(LOCAL_DATE_TIME_PATTERN);
    const accepted = [
      '2026-03-01',
      '2026-03-01T10:15',
      '2026-03-01T10:15:30',
      '2026-03-01T10:15:30.123456789',
    ];
    const refused = [
      '2026-03-01T10:15:30Z',
      '2026-03-01T10:15:30+01:00',
      '2026-03-01 10:15',
      '01/03/2026',
      '2026-3-1',
      '',
    ];
    for (const value of accepted) {
      expect(pattern.test(value)).toBe(true);
      expect(() => parseLocalDateTime('From', value)).not.toThrow();
    }
    for (const value of refused) {
      expect(pattern.test(value)).toBe(false);
      expect(() => parseLocalDateTime('From', value)).toThrow();
    }
  });

  it('should answer every error as application/problem+json with the ProblemDetails schema, for each status a route can answer', () => {
    const expected: Record<string, number[]> = {
      [`post ${TOKEN}`]: [400, 401, 403, 413, 415, 429, 500, 503],
      'get /api/v1.0/shops': [401, 403, 500, 503],
      [`get ${REPORT}`]: [400, 401, 403, 429, 500, 503],
      ...Object.fromEntries(CURSOR_ROUTES.map((r) => [`get ${r}`, [400, 401, 403, 500, 503]])),
    };
    for (const { path: p, method, op } of operations(doc)) {
      const errors = Object.keys(op.responses)
        .map(Number)
        .filter((s) => s >= 400);
      if (expected[`${method} ${p}`])
        expect({ p, errors }).toEqual({ p, errors: expected[`${method} ${p}`] });
      for (const status of errors) {
        const content = op.responses[status].content;
        expect(Object.keys(content)).toEqual(['application/problem+json']);
        expect(content['application/problem+json'].schema).toEqual({
          $ref: '#/components/schemas/ProblemDetails',
        });
        expect(content['application/problem+json'].example).toMatchObject({ status, instance: p });
      }
      if (p !== TOKEN) expect(op.responses[401].headers).toHaveProperty('WWW-Authenticate');
      for (const status of [429, 503].filter((s) => errors.includes(s))) {
        expect(op.responses[status].headers).toHaveProperty('Retry-After');
      }
    }
    expect(doc.components.schemas.ProblemDetails.required).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'detail', 'instance']),
    );
  });

  it('should document the status and problem+json body that real failing requests get', async () => {
    const fastify = app.getHttpAdapter().getInstance();
    const json = { 'content-type': 'application/json' };
    const tries: Array<{ method: 'GET' | 'POST'; url: string; headers?: Json; payload?: string }> =
      [
        { method: 'POST', url: TOKEN, headers: json, payload: '{"username":"x"}' },
        {
          method: 'POST',
          url: TOKEN,
          headers: json,
          payload: '{"username":"nobody","password":"x"}',
        },
        {
          method: 'POST',
          url: TOKEN,
          headers: json,
          payload: JSON.stringify({ username: 'x'.repeat(20_000) }),
        },
        { method: 'POST', url: TOKEN, headers: { 'content-type': 'text/plain' }, payload: 'x' },
        ...[...CURSOR_ROUTES, REPORT, '/api/v1.0/shops'].map((url) => ({
          method: 'GET' as const,
          url,
        })),
        ...[...CURSOR_ROUTES, REPORT].map((url) => ({
          method: 'GET' as const,
          url: `${url}?Unknown=1`,
          headers: { authorization: `Bearer ${forgeToken()}` },
        })),
        {
          method: 'GET',
          url: '/api/v1.0/shops',
          headers: { authorization: `Bearer ${forgeToken({ claims: { role: ['Cashier'] } })}` },
        },
      ];
    const seen = new Set<string>();
    for (const t of tries) {
      const res = await fastify.inject({
        method: t.method,
        url: t.url,
        headers: t.headers,
        payload: t.payload,
      });
      const route = t.url.split('?')[0];
      const documented = Object.keys(doc.paths[route][t.method.toLowerCase()].responses);
      expect({
        route,
        status: res.statusCode,
        documented: documented.includes(String(res.statusCode)),
      }).toEqual({
        route,
        status: res.statusCode,
        documented: true,
      });
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      seen.add(String(res.statusCode));
    }
    expect([...seen].sort()).toEqual(['400', '401', '403', '413', '415']);
  });

  it('should give every record a schema whose properties are the fields the service writes', () => {
    const schemas = doc.components.schemas as Json;
    const fieldsOf = (name: string) => Object.keys(schemas[name].properties).sort();
    expect(fieldsOf('Sale')).toEqual(Object.keys(SALE_EXAMPLE).sort());
    expect(fieldsOf('SaleLine')).toEqual(Object.keys(SALE_EXAMPLE.lines[0]).sort());
    expect(fieldsOf('Payment')).toEqual(Object.keys(PAYMENT_EXAMPLE).sort());
    expect(fieldsOf('CashMovement')).toEqual(Object.keys(CASH_MOVEMENT_EXAMPLE).sort());
    expect(fieldsOf('Shop')).toEqual(Object.keys(SHOP_EXAMPLE).sort());
    expect(fieldsOf('TokenRequest')).toEqual(['password', 'username']);
    expect(fieldsOf('TokenResponse')).toEqual(['expiration', 'token']);
    expect(Object.keys(schemas.TransactionDetailRow.properties)).toEqual(REPORT_COLUMNS);
    for (const page of ['SalesPage', 'PaymentsPage', 'CashMovementsPage']) {
      expect(fieldsOf(page)).toEqual(['data', 'nextCursor']);
      expect(schemas[page].properties.nextCursor.nullable).toBe(true);
      expect(schemas[page].required).toEqual(['data', 'nextCursor']);
    }
    for (const route of CURSOR_ROUTES) {
      const ok = doc.paths[route].get.responses[200].content['application/json'];
      expect(ok.schema.$ref).toMatch(/Page$/);
      expect(ok.example.data).toHaveLength(1);
    }
  });
});
