import { insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser, CreatedUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { outputLine, ServiceProcess, spawnService } from '../support/service-process';
import { OtlpReceiver, ReceivedSpan } from './support/otlp-receiver';

/**
 * Traces end to end: the built service (node dist/src/main.js) exports OTLP/JSON to a receiver
 * of the spec's own, and each request is one trace whose spans have the right parents, names
 * and attributes, with no token, password, cursor, username or shop code anywhere in them.
 * Configuration (protocols, traceparent, bad values): tracing-configuration.e2e-spec.ts.
 */

jest.setTimeout(120_000);

const SALES = 3;

describeEachDatabase('Tracing with OpenTelemetry', (ctx) => {
  const receiver = new OtlpReceiver();
  let service: ServiceProcess;
  let user: CreatedUser;
  let shop: string;
  let token: string;

  const rootOf = (name: string, traceId?: string): ReceivedSpan | undefined =>
    receiver.spans.find(
      (s) => s.name === name && s.parentSpanId === '' && (!traceId || s.traceId === traceId),
    );
  const childrenOf = (span: ReceivedSpan): ReceivedSpan[] =>
    receiver.spans.filter((s) => s.parentSpanId === span.spanId && s.traceId === span.traceId);
  /** The trace id of the request's log line (written as the answer leaves: waited for). */
  const traceOfLogLine = async (requestId: string): Promise<string | undefined> => {
    const line = await outputLine(service, new RegExp(`"requestId":"${requestId}".*"msg":"GET `));
    return (JSON.parse(line) as { traceId?: string }).traceId;
  };

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    user = await createUser(ctx.db.db, { shops: [shop] });
    for (let i = 0; i < SALES; i++) {
      const soldAt = `2026-04-0${i + 1} 10:00:00.000`;
      await insertSale(ctx.db.db, { id: BigInt(7000 + i), shopCode: shop, soldAt });
    }
    const endpoint = await receiver.start();
    service = await spawnService(
      {
        DATA_DIR: ctx.db.dataDir,
        ...(ctx.db.appDatabaseUrl ? { DATABASE_URL: ctx.db.appDatabaseUrl } : {}),
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      { built: true },
    );
    token = await getToken(service.baseUrl, user.username, user.password);
  });

  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await receiver.close();
  });

  it('should make one GET /sales one trace: the route as its name, its reads as children naming the pool, the caller as attributes', async () => {
    const res = await http(service.baseUrl, `/api/v1.0/sales?ShopCode=${shop}&Limit=2`, {
      headers: { ...bearer(token), 'X-Request-Id': 'trace-sales-1' },
    });
    expect(res.status).toBe(200);
    const traceId = await traceOfLogLine('trace-sales-1');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    await receiver.until(() => {
      const root = rootOf('GET /api/v1.0/sales', traceId);
      return root !== undefined && childrenOf(root).length >= 2;
    });
    const root = rootOf('GET /api/v1.0/sales', traceId) as ReceivedSpan;
    expect(root.attributes).toMatchObject({
      'http.route': '/api/v1.0/sales',
      'enduser.id': user.id,
      'pos_api.shop_count': 1,
      'pos_api.page_size': 2,
    });
    // The page's keyset read, then its lines: both on the primary (no replicas here). On
    // MariaDB each read is mysql2's own span, naming the pool (decision 28.9), the statement with
    // `?` for every value; on SQLite (no driver span) the service's `db.read`.
    const reads = childrenOf(root);
    if (ctx.kind === 'mysql') {
      expect(reads).toHaveLength(2);
      for (const span of reads) {
        expect(span.name).toBe('SELECT');
        expect(span.attributes).toMatchObject({
          'db.system.name': 'mysql',
          'pos_api.db.pool': 'primary',
        });
        const statement = String(span.attributes['db.query.text']);
        expect(statement).toMatch(/^SELECT /);
        expect(statement).not.toContain(shop);
      }
    } else {
      expect(reads.map((s) => [s.name, s.attributes['pos_api.db.pool']])).toEqual([
        ['db.read', 'primary'],
        ['db.read', 'primary'],
      ]);
    }
    // Nothing below the reads: one span a read.
    expect(reads.flatMap(childrenOf)).toEqual([]);
  });

  it('should trace the token route: the queue wait and the verification under the request', async () => {
    const res = await http(service.baseUrl, '/api/v1.0/Token', {
      method: 'POST',
      json: { username: user.username, password: user.password },
      headers: { 'X-Request-Id': 'trace-token-1' },
    });
    expect(res.status).toBe(200);
    await receiver.until(() => receiver.spans.some((s) => s.name === 'password.verify'));
    const root = rootOf('POST /api/v1.0/Token') as ReceivedSpan;
    expect(childrenOf(root).map((s) => s.name)).toEqual(
      expect.arrayContaining(['password.queue_wait', 'password.verify']),
    );
  });

  it("should trace the feed's second read on MariaDB and say whether it caught up", async () => {
    const res = await http(service.baseUrl, `/api/v1.0/sales/feed?ShopCode=${shop}`, {
      headers: { ...bearer(token), 'X-Request-Id': 'trace-feed-1' },
    });
    expect(res.status).toBe(200);
    const traceId = await traceOfLogLine('trace-feed-1');
    await receiver.until(() => rootOf('GET /api/v1.0/sales/feed', traceId) !== undefined);
    const root = rootOf('GET /api/v1.0/sales/feed', traceId) as ReceivedSpan;
    expect(root.attributes).toMatchObject({ 'pos_api.caught_up': true, 'pos_api.shop_count': 1 });
    const names = childrenOf(root).map((s) => s.name);
    expect(names.includes('feed.second_read')).toBe(ctx.kind === 'mysql');
  });

  it("should trace the report's chunks", async () => {
    const res = await http(
      service.baseUrl,
      `/api/v1.0/TransactionDetailReport?ShopCode=${shop}&From=2026-04-01&To=2026-04-08`,
      { headers: bearer(token) },
    );
    expect(res.status).toBe(200);
    await receiver.until(() => receiver.spans.some((s) => s.name === 'report.chunk'));
    const chunk = receiver.spans.find((s) => s.name === 'report.chunk') as ReceivedSpan;
    expect(childrenOf(chunk).map((s) => [s.name, s.attributes['pos_api.db.pool']])).toContainEqual([
      ctx.kind === 'mysql' ? 'SELECT' : 'db.read',
      'primary',
    ]);
  });

  it('should put the trace id in every problem body and in the request log line', async () => {
    const res = await http(service.baseUrl, '/api/v1.0/sales?ShopCode=&Limit=0', {
      headers: { ...bearer(token), 'X-Request-Id': 'trace-problem-1' },
    });
    expect(res.status).toBe(400);
    expect(res.body.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(await traceOfLogLine('trace-problem-1')).toBe(res.body.traceId);
    await receiver.until(() => rootOf('GET /api/v1.0/sales', res.body.traceId) !== undefined);
    const unauthorized = await http(service.baseUrl, '/api/v1.0/payments');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("should ignore a caller's traceparent (TRACE_TRUST_INCOMING is not set)", async () => {
    const callerTrace = '0af7651916cd43dd8448eb211c80319c';
    const res = await http(service.baseUrl, '/api/v1.0/shops', {
      headers: { ...bearer(token), traceparent: `00-${callerTrace}-b7ad6b7169203331-01` },
    });
    expect(res.status).toBe(200);
    await receiver.until(() => rootOf('GET /api/v1.0/shops') !== undefined);
    expect(receiver.spans.filter((s) => s.traceId === callerTrace)).toEqual([]);
  });

  it('should export no token, password, cursor, username or shop code in any span', async () => {
    // Counted before the requests: their spans may all be exported before the last one answers.
    const before = receiver.spans.length;
    const first = await http(service.baseUrl, `/api/v1.0/sales?ShopCode=${shop}&Limit=1`, {
      headers: bearer(token),
    });
    const cursor = first.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const second = await http(
      service.baseUrl,
      `/api/v1.0/sales?Cursor=${encodeURIComponent(cursor)}&access_token=${token}`,
      { headers: bearer(token) },
    );
    expect(second.status).toBeLessThan(500);
    await http(service.baseUrl, '/api/v1.0/Token', {
      method: 'POST',
      json: { username: user.username, password: 'a-wrong-password-123' },
    });
    // The feed and the report too, so that every kind of span is looked at whatever ran before.
    const feed = await http(service.baseUrl, `/api/v1.0/payments/feed?ShopCode=${shop}`, {
      headers: bearer(token),
    });
    expect(feed.status).toBe(200);
    const report = await http(
      service.baseUrl,
      `/api/v1.0/TransactionDetailReport?ShopCode=${shop}&From=2026-04-01&To=2026-04-03`,
      { headers: bearer(token) },
    );
    expect(report.status).toBe(200);
    // At least: the first page with its two reads, the second page, the token with its two
    // spans, the feed, the report and its chunk.
    await receiver.until((spans) => spans.length >= before + 10);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const secrets = {
      token,
      password: user.password,
      wrongPassword: 'a-wrong-password-123',
      cursor,
      cursorStart: cursor.slice(0, 24),
      username: user.username,
      shop,
    };
    expect(receiver.spans.length).toBeGreaterThanOrEqual(before + 10);
    for (const name of ['password.verify', 'report.chunk', 'GET /api/v1.0/payments/feed']) {
      expect(receiver.spans.map((span) => span.name)).toContain(name);
    }
    const leaks = receiver.spans.flatMap((span) =>
      Object.entries(secrets)
        .filter(([, secret]) => span.raw.includes(secret))
        .map(([kind]) => `${kind} in ${span.name}`),
    );
    expect(leaks).toEqual([]);
  });
});
