import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { COMMITTED_DOCUMENT } from '../../tools/openapi/openapi.cli';
import { insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { mismatches } from './schema-check';

// API tools fill requests from the document's parameter examples (Postman's importer, Swagger
// UI's "Try it out"): each example must fit its own schema, and the service must answer the
// requests made of them with a 200, not a 400.

type Json = Record<string, any>;
interface QueryParameter {
  name: string;
  required: boolean;
  schema: Json;
  example?: unknown;
}

const document: Json = JSON.parse(
  readFileSync(path.join(__dirname, '../..', COMMITTED_DOCUMENT), 'utf8'),
);
const operations = Object.entries(document.paths as Json)
  .flatMap(([route, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({
      route,
      method: method.toUpperCase(),
      parameters: ((op as Json).parameters ?? []).filter(
        (p: Json) => p.in === 'query',
      ) as QueryParameter[],
    })),
  )
  .filter((operation) => operation.parameters.length > 0);

const queryOf = (parameters: QueryParameter[]): string =>
  new URLSearchParams(
    parameters.map((p): [string, string] => [p.name, String(p.example)]),
  ).toString();

describe('docs/openapi.json: every query parameter has an example a tool can send as-is', () => {
  it('should list the sixteen operations with query parameters', () => {
    expect(operations.map((o) => `${o.method} ${o.route}`).sort()).toEqual([
      'GET /api/v1.0/TransactionDetailReport',
      'GET /api/v1.0/business-days',
      'GET /api/v1.0/cash-drawer-sessions',
      'GET /api/v1.0/cash-drawer-sessions/bulk',
      'GET /api/v1.0/cash-movements',
      'GET /api/v1.0/cash-movements/bulk',
      'GET /api/v1.0/cash-movements/digest',
      'GET /api/v1.0/cash-movements/feed',
      'GET /api/v1.0/payments',
      'GET /api/v1.0/payments/bulk',
      'GET /api/v1.0/payments/digest',
      'GET /api/v1.0/payments/feed',
      'GET /api/v1.0/sales',
      'GET /api/v1.0/sales/bulk',
      'GET /api/v1.0/sales/digest',
      'GET /api/v1.0/sales/feed',
    ]);
  });

  it.each(operations)(
    'should give each parameter of $method $route an example that fits its own schema',
    ({ parameters }) => {
      for (const p of parameters) {
        expect({ name: p.name, hasExample: 'example' in p }).toEqual({
          name: p.name,
          hasExample: true,
        });
        const problems = mismatches(p.example, p.schema, document.components.schemas);
        expect({ name: p.name, problems }).toEqual({ name: p.name, problems: [] });
      }
    },
  );
});

describeEachDatabase('The documented parameter examples, sent as-is', (ctx) => {
  let api: TestApp;
  let token: string;

  beforeAll(async () => {
    // The shop and the month the examples name, with one sale in it.
    const shop = await createShop(ctx.db.db, 'SHOP001');
    await insertSale(ctx.db.db, { id: 1n, shopCode: shop, soldAt: '2026-03-10 10:00:00.000' });
    token = forgeToken({ claims: { sub: 'examples', shop_code: [shop] } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  // The digests and the report need a period: From and To, or the business dates instead (each
  // optional in the document, one pair required); their examples give From and To.
  const needsPeriod = (route: string) => /\/digest$|TransactionDetailReport$|\/bulk$/.test(route);
  // A bulk read takes one shop and a period, each optional in the document only with a Cursor,
  // and no business dates.
  const bulk = (route: string) => /\/bulk$/.test(route);

  it.each(operations)(
    'should answer $method $route 200 with all its examples, and with each optional one alone',
    async ({ route, parameters }) => {
      const period = needsPeriod(route) ? ['From', 'To', ...(bulk(route) ? ['ShopCode'] : [])] : [];
      const required = parameters.filter((p) => p.required || period.includes(p.name));
      const optional = parameters.filter((p) => !required.includes(p));
      const byDates = [
        ...parameters.filter((p) => p.required),
        { name: 'BusinessDateFrom', example: '2026-03-01' },
        { name: 'BusinessDateTo', example: '2026-03-31' },
      ] as QueryParameter[];
      const sets = [parameters, ...optional.map((p) => [...required, p])];
      for (const set of period.length > 0 && !bulk(route) ? [...sets, byDates] : sets) {
        const query = queryOf(set);
        const res = await http(api.baseUrl, `${route}?${query}`, { headers: bearer(token) });
        expect({ query, status: res.status }).toEqual({ query, status: 200 });
      }
    },
  );

  it('should find the example shop and month: the sale of SHOP001 in March 2026', async () => {
    const sales = operations.find((o) => o.route === '/api/v1.0/sales');
    const res = await http(api.baseUrl, `/api/v1.0/sales?${queryOf(sales?.parameters ?? [])}`, {
      headers: bearer(token),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual(['1']);
  });
});
