/**
 * The source of the program that uses the generated client. It is written next to the types
 * openapi-typescript generates from the served document (at test time, in test-artifacts/),
 * type-checked against them with the TypeScript compiler, then run: if the document lacked a
 * route, a parameter or a field used here, the type-check fails.
 *
 * Authentication is set once on the client, as an openapi-fetch middleware that reads each
 * operation's security requirement in the document and applies the declared scheme (what
 * generated clients do): http bearer sends `Authorization: Bearer <token>`. No call below
 * writes an Authorization header.
 */
const HEADER = String.raw`
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

type Requirements = Array<Record<string, string[]>>;
interface SecurityScheme { type: string; scheme?: string; in?: string; name?: string }
export interface DocumentSecurity {
  security?: Requirements;
  paths: Record<string, Record<string, { security?: Requirements }>>;
  components: { securitySchemes: Record<string, SecurityScheme> };
}

/** Applies the security scheme the document declares for each operation. */
export function authFromDocument(document: DocumentSecurity, token: () => string | undefined): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const value = token();
      const operation = document.paths[schemaPath]?.[request.method.toLowerCase()];
      if (!value) return request;
      for (const requirement of operation?.security ?? document.security ?? []) {
        for (const name of Object.keys(requirement)) {
          const scheme = document.components.securitySchemes[name];
          if (scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') {
            request.headers.set('Authorization', 'Bearer ' + value);
          } else if (scheme?.type === 'apiKey' && scheme.in === 'header' && scheme.name) {
            request.headers.set(scheme.name, value);
          }
        }
      }
      return request;
    },
  };
}

export interface SentRequest { method: string; path: string; authorization: string | null }
type Page<T> = { data: T[]; nextCursor: string | null };

export async function useTheApi(baseUrl: string, document: DocumentSecurity, username: string, password: string) {
  const sent: SentRequest[] = [];
  let token: string | undefined;
  const client = createClient<paths>({
    baseUrl,
    fetch: (request: Request) => {
      sent.push({ method: request.method, path: new URL(request.url).pathname, authorization: request.headers.get('authorization') });
      return fetch(request);
    },
  });
  client.use(authFromDocument(document, () => token));

  const issued = await client.POST('/api/v1.0/Token', { body: { username, password } });
  if (!issued.data) throw new Error('token: ' + issued.response.status);
  token = issued.data.token;
  const expiration: string = issued.data.expiration;

  const shops = await client.GET('/api/v1.0/shops');
  const shopCodes: string[] = (shops.data?.data ?? []).map((shop) => shop.code);

  const next = (page: Page<unknown> | undefined): string => {
    if (!page?.nextCursor) throw new Error('expected a next page');
    return page.nextCursor;
  };
  const sales1 = await client.GET('/api/v1.0/sales', { params: { query: { Limit: 3 } } });
  const sales2 = await client.GET('/api/v1.0/sales', { params: { query: { Cursor: next(sales1.data), Limit: 3 } } });
  const payments1 = await client.GET('/api/v1.0/payments', { params: { query: { Limit: 3 } } });
  const payments2 = await client.GET('/api/v1.0/payments', { params: { query: { Cursor: next(payments1.data), Limit: 3 } } });
  const cash1 = await client.GET('/api/v1.0/cash-movements', { params: { query: { Limit: 3 } } });
  const cash2 = await client.GET('/api/v1.0/cash-movements', { params: { query: { Cursor: next(cash1.data), Limit: 3 } } });
  const firstLineGross: string | undefined = sales1.data?.data[0]?.lines[0]?.gross;
  const sales: Array<components['schemas']['Sale']> = [...(sales1.data?.data ?? []), ...(sales2.data?.data ?? [])];
  const payments: Array<components['schemas']['Payment']> = [...(payments1.data?.data ?? []), ...(payments2.data?.data ?? [])];
  const cashMovements: Array<components['schemas']['CashMovement']> = [...(cash1.data?.data ?? []), ...(cash2.data?.data ?? [])];
  const pages = { sales: [sales1, sales2], payments: [payments1, payments2], cashMovements: [cash1, cash2] };
  const statuses = Object.fromEntries(
    Object.entries(pages).map(([name, two]) => [name, two.map((r) => r.response.status)]),
  );
  const nextCursors = Object.fromEntries(
    Object.entries(pages).map(([name, two]) => [name, two.map((r) => r.data?.nextCursor ?? null)]),
  );
`;

const REPORT = String.raw`
  const period = { From: '2026-03-02T00:00:00', To: '2026-03-04T00:00:00' };
  const json = await client.GET('/api/v1.0/TransactionDetailReport', { params: { query: period } });
  const csv = await client.GET('/api/v1.0/TransactionDetailReport', {
    params: { query: period },
    headers: { Accept: 'text/csv' },
    parseAs: 'text',
  });
  const report = {
    status: json.response.status,
    body: json.data,
    csvStatus: csv.response.status,
    csvType: csv.response.headers.get('content-type'),
    csv: csv.data,
  };
`;

const FOOTER = String.raw`
  return { token, expiration, shopCodes, sales, payments, cashMovements, statuses, nextCursors, firstLineGross, report, sent };
}
`;

/** The program, with the report calls when the document has the report. */
export function clientProgram(withReport: boolean): string {
  return HEADER + (withReport ? REPORT : '  const report = null;\n') + FOOTER;
}
