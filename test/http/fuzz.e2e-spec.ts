import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { REPORT_CALLS_PER_MINUTE } from '../../src/config/limits';
import { insertReportSale, REPORT } from '../reports/report-fixtures';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { appForBlock } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { openApiOperations } from './fuzz/openapi-operations';
import { FuzzRequest, fuzzRequest } from './fuzz/request.arbitrary';

jest.setTimeout(120_000);

/** Requests sent at once; RUNS batches make at least 3,000 requests per database. */
const BATCH = 6;
const RUNS = 510;
const PROBLEM = /^application\/problem\+json/;

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** Sends with node:http, which writes one header line per value of an array (fetch joins them). */
function send(baseUrl: string, request: FuzzRequest): Promise<Answer> {
  const headers = { ...request.headers };
  if (request.body !== undefined)
    headers['Content-Length'] = String(Buffer.byteLength(request.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}${request.url}`,
      { method: request.method, headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'] ?? '',
            body,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** Routes, method first, where every request needs exactly one valid bearer header. */
const DATA_ROUTES =
  /^GET \/api\/v1\.0\/((sales|payments|cash-movements)(\/feed|\/digest)?|TransactionDetailReport|shops)(\?|$)/;

/**
 * Why an answer breaks the rules, or null: no 5xx; every 4xx a problem with its status; on a
 * data route, 401 unless exactly one valid bearer header was sent (431, a request line or
 * headers too large, is answered before any route).
 */
function violationOf(request: FuzzRequest, answer: Answer): string | null {
  if (answer.status >= 500) return `${answer.status}: ${answer.body.slice(0, 300)}`;
  const dataRoute = DATA_ROUTES.test(`${request.method} ${request.url}`);
  if (dataRoute && !request.oneValidBearer && answer.status !== 401 && answer.status !== 431) {
    return `${answer.status} without exactly one valid bearer header`;
  }
  if (answer.status < 400) return null;
  if (!PROBLEM.test(answer.contentType)) return `${answer.status} as ${answer.contentType}`;
  try {
    const problem = JSON.parse(answer.body) as { status?: unknown };
    return problem.status === answer.status
      ? null
      : `${answer.status} with a body saying ${String(problem.status)}`;
  } catch {
    return `${answer.status}: a problem body that is not JSON`;
  }
}

describeEachDatabase('Fuzz: every route of docs/openapi.json', (ctx) => {
  // The token route's per-address limit would answer most token requests 429 before any check.
  const api = appForBlock(ctx, { TOKEN_RATE_LIMIT_PER_MINUTE: '100000' });
  const operations = openApiOperations();
  let tokens: string[] = [];
  let shop: string;

  beforeAll(async () => {
    const db = ctx.db.db;
    shop = await createShop(db);
    await insertReportSale(db, {
      id: 700,
      shopCode: shop,
      soldAt: '2026-03-02 10:00:00.000',
      lines: [
        {
          description: 'Fuzz',
          quantity: '1.0000',
          unitPrice: '1.00',
          net: '1.00',
          tax: '0.00',
          gross: '1.00',
        },
      ],
      payments: [{ id: 700, method: 'CASH', amount: '1.00' }],
    });
    // The report's limit (12 served a minute per user, issue 27) is reached on purpose below:
    // reached by the fuzz alone, it depended on how many reports one user got served within a
    // minute, that is on the machine's speed (runs without any 429 failed the status check).
    tokens = Array.from({ length: 6 }, (_, i) =>
      forgeToken({
        claims: {
          sub: `fuzz-${process.pid}-${i}`,
          jti: `fuzz-${i}`,
          shop_code: i % 4 === 0 ? [] : [shop, 'OTHER'],
          role: i === 5 ? ['Cashier'] : ['ApiUser'],
        },
      }),
    );
  });

  it('should cover every operation of the document', () => {
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/v1.0/Token',
        'GET /api/v1.0/sales',
        'GET /api/v1.0/payments',
        'GET /api/v1.0/cash-movements',
        'GET /api/v1.0/TransactionDetailReport',
        'GET /api/v1.0/shops',
        'GET /api/v1.0/sales/feed',
        'GET /api/v1.0/payments/feed',
        'GET /api/v1.0/cash-movements/feed',
        'GET /api/v1.0/sales/digest',
        'GET /api/v1.0/payments/digest',
        'GET /api/v1.0/cash-movements/digest',
      ]),
    );
  });

  it('should answer at least 3,000 fuzzed requests without a 5xx, every 4xx a problem+json, and still answer afterwards', async () => {
    let sent = 0;
    const statuses = new Set<number>();
    // One fuzz user's minute of reports taken first, one after another: its last call is refused
    // 429 whatever the machine's speed, and its fuzzed report calls meet the limit too.
    const report: FuzzRequest = {
      method: 'GET',
      url: `${REPORT}?From=2026-03-01&To=2026-03-03&ShopCode=${shop}`,
      headers: { Authorization: `Bearer ${tokens[1]}` },
      oneValidBearer: true,
    };
    const calls: Answer[] = [];
    for (let i = 0; i <= REPORT_CALLS_PER_MINUTE; i++) {
      calls.push(await send(api.current.baseUrl, report));
    }
    expect(calls.map((answer) => answer.status)).toEqual([
      ...Array<number>(REPORT_CALLS_PER_MINUTE).fill(200),
      429,
    ]);
    expect(calls.map((answer) => violationOf(report, answer))).not.toContainEqual(
      expect.any(String),
    );
    for (const answer of calls) statuses.add(answer.status);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fuzzRequest(operations, tokens), { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          const answers = await Promise.all(
            batch.map((request) => send(api.current.baseUrl, request)),
          );
          sent += batch.length;
          for (const answer of answers) statuses.add(answer.status);
          answers.forEach((answer, i) => {
            const violation = violationOf(batch[i], answer);
            if (violation)
              throw new Error(`${batch[i].method} ${batch[i].url.slice(0, 200)}: ${violation}`);
          });
        },
      ),
      { numRuns: RUNS },
    );
    expect(sent).toBeGreaterThanOrEqual(3_000);
    // The requests reached past the guards: data, refusals and validation all answered.
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 400, 401, 403, 404, 429]));
    const after = await http(api.current.baseUrl, '/api/v1.0/shops', {
      headers: bearer(tokens[1]),
    });
    expect(after.status).toBe(200);
    expect(after.body.data.map((s: { code: string }) => s.code)).toEqual([shop]);
  });
});
