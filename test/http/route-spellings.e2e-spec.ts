import { request as httpRequest } from 'node:http';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { forgeToken } from '../support/tokens';
import { startTestApp, TestApp } from '../support/test-app';
import { gateQueries } from '../operations/support/query-gate';
import { dataRoutes } from './support/data-routes';

jest.setTimeout(120_000);

/**
 * A short deadline keeps the held-request case fast (the default is 15 s); that case gets an app
 * of its own, so a sign-in slowed by a busy machine is not cut by it.
 */
const DEADLINE_MS = 1_500;
const PERIOD = 'From=2026-03-01&To=2026-03-02';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request with the target written as given: fetch normalises a path (it would undo `%61`) and
 * cannot send an absolute-form target, which a client may send to a server (RFC 9112, 3.2.2).
 */
function send(
  baseUrl: string,
  target: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  timeoutMs = 30_000,
): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, method: init.method ?? 'GET', path: target, headers: init.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    // A request the deadline missed would be held as long as its reads: given up on, status 0.
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      resolve({ status: 0, headers: {}, body: '' });
    });
    req.end(init.body);
  });
}

/** The same route, spelt as routing reads it three ways: plain, one encoded letter, absolute form. */
const spellings = (baseUrl: string, path: string): Record<string, string> => ({
  plain: path,
  encoded: path.replace(/^\/api\//, '/%61pi/'),
  absolute: `${baseUrl}${path}`,
});

/** What must not depend on the spelling (a problem's request id, trace id and instance do). */
function comparable(answer: Answer): Record<string, unknown> {
  let body: unknown = answer.body;
  try {
    const parsed = JSON.parse(answer.body) as Record<string, unknown>;
    body = Object.fromEntries(
      Object.entries(parsed).filter(([key]) => !['requestId', 'instance', 'traceId'].includes(key)),
    );
  } catch {
    // The report's CSV: compared as it is.
  }
  return {
    status: answer.status,
    cacheControl: answer.headers['cache-control'],
    contentType: answer.headers['content-type'],
    link: answer.headers.link,
    body,
  };
}

/**
 * Issue 44, 1: the hooks that apply to every API route (the deadline, Cache-Control: no-store)
 * decide on the matched route, so another spelling of the same path that routing accepts gets the
 * same headers, deadline and answer as the plain path.
 */
describeEachDatabase('Every spelling of an API route gets the same hooks', (ctx) => {
  let api: TestApp;
  let token: string;
  let shop: string;
  let user: { username: string; password: string };

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    user = await createUser(ctx.db.db, { shops: [shop] });
    token = forgeToken({ claims: { shop_code: [shop] } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await api?.close();
  });

  const routes = (): Array<[string, string]> =>
    [...dataRoutes(shop), `TransactionDetailReport?${PERIOD}`].map((route) => [
      route,
      `/api/v1.0/${route}`,
    ]);

  it('should answer every data route the same, no-store included, however its path is spelt', async () => {
    for (const [route, path] of routes()) {
      const answers: Record<string, Record<string, unknown>> = {};
      for (const [name, target] of Object.entries(spellings(api.baseUrl, path))) {
        const answer = await send(api.baseUrl, target, {
          headers: { Authorization: `Bearer ${token}` },
        });
        answers[name] = comparable(answer);
      }
      expect({ route, status: answers.plain.status }).toEqual({ route, status: 200 });
      expect({ route, cacheControl: answers.plain.cacheControl }).toEqual({
        route,
        cacheControl: 'no-store',
      });
      expect({ route, ...answers.encoded }).toEqual({ route, ...answers.plain });
      expect({ route, ...answers.absolute }).toEqual({ route, ...answers.plain });
    }
  });

  it('should answer POST /Token the same, no-store included, however its path is spelt', async () => {
    for (const [name, target] of Object.entries(spellings(api.baseUrl, '/api/v1.0/Token'))) {
      const answer = await send(api.baseUrl, target, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: user.username, password: user.password }),
      });
      expect({ name, status: answer.status, cache: answer.headers['cache-control'] }).toEqual({
        name,
        status: 200,
        cache: 'no-store',
      });
    }
  });

  it('should answer 503 at the deadline, however the path is spelt, a request whose reads are held', async () => {
    const hurried = await startTestApp(ctx.db, { REQUEST_DEADLINE_MS: String(DEADLINE_MS) });
    const gate = gateQueries(hurried.app, /\bpos_sales\b/);
    try {
      const held = ['sales?' + PERIOD, `sales/digest?ShopCode=${shop}&${PERIOD}`].flatMap((route) =>
        Object.entries(spellings(hurried.baseUrl, `/api/v1.0/${route}`)).map(
          async ([name, target]) => {
            const started = Date.now();
            // A user of its own each: one user's third digest at once would be refused 429.
            const own = forgeToken({ claims: { sub: `held-${name}`, shop_code: [shop] } });
            const answer = await send(
              hurried.baseUrl,
              target,
              { headers: { Authorization: `Bearer ${own}` } },
              6_000,
            );
            return { route, name, status: answer.status, prompt: Date.now() - started < 4_000 };
          },
        ),
      );
      for (const outcome of await Promise.all(held)) {
        expect(outcome).toEqual({ ...outcome, status: 503, prompt: true });
      }
    } finally {
      gate.open();
      jest.restoreAllMocks();
      await hurried.close();
    }
  });
});
