import { DataSource } from 'typeorm';
import { closeGracefully } from '../../src/operations/graceful-shutdown';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { REPORT, reportToken, seedStreamingReport } from '../reports/report-fixtures';
import { startOpsApp } from './support/management';
import { gateQueries } from './support/query-gate';
import { spawnService } from '../support/service-process';
import { getWithoutReading, RawConnection } from './support/raw-http';
import { TcpProxy } from './support/tcp-proxy';
import { sample } from './support/management';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

const readyStatus = async (managementUrl: string) =>
  (await fetch(`${managementUrl}/health/ready`).catch(() => undefined))?.status;

const inFlight = async (managementUrl: string) =>
  sample(await (await fetch(`${managementUrl}/metrics`)).text(), 'pos_api_http_requests_in_flight');

describeEachDatabase('Graceful shutdown', (ctx) => {
  let shop: string;
  let user: { username: string; password: string };

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    user = await createUser(ctx.db.db, { shops: [shop] });
  });

  it('should finish a request in flight, answer readiness 503 and refuse new connections meanwhile, then close the database', async () => {
    const ops = await startOpsApp(ctx.db);
    const token = await getToken(ops.baseUrl, user.username, user.password);
    const gate = gateQueries(ops.app, /pos_sales/);
    const slow = http(ops.baseUrl, `/api/v1.0/sales?ShopCode=${shop}`, { headers: bearer(token) });
    await gate.entered;

    const closing = closeGracefully(ops.app, 10_000);
    await eventually(async () => (await readyStatus(ops.managementUrl)) === 503);
    const ready = await http(ops.managementUrl, '/health/ready');
    expect(ready.body.error).toEqual({ shutdown: { status: 'down', message: 'shutting down' } });
    await eventually(
      async () =>
        (await fetch(`${ops.baseUrl}/api/v1.0/shops`).catch(() => 'refused')) === 'refused',
    );

    gate.open();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], nextCursor: null });
    await expect(closing).resolves.toEqual({ cutRequests: 0 });
    expect(ops.app.get(DataSource).isInitialized).toBe(false);
    await expect(fetch(`${ops.managementUrl}/health/live`)).rejects.toThrow();
  });

  it('should answer a request arriving on a kept-alive connection during the drain with 503 problem+json, Retry-After and its request id', async () => {
    const ops = await startOpsApp(ctx.db);
    const token = await getToken(ops.baseUrl, user.username, user.password);
    const gate = gateQueries(ops.app, /pos_sales/);
    const connection = await RawConnection.open(ops.baseUrl);
    connection.get(`/api/v1.0/sales?ShopCode=${shop}`, bearer(token));
    await gate.entered;

    const closing = closeGracefully(ops.app, 10_000);
    await eventually(
      async () =>
        (await fetch(`${ops.baseUrl}/api/v1.0/shops`).catch(() => 'refused')) === 'refused',
    );
    connection.get(`/api/v1.0/sales?ShopCode=${shop}`, {
      ...bearer(token),
      'X-Request-Id': 'late-on-kept-alive',
    });
    gate.open();
    const [first, late, ...more] = await connection.responsesUntilClosed();
    expect(first.status).toBe(200);
    expect(more).toEqual([]);
    expect(late.status).toBe(503);
    expect(late.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(late.headers['retry-after'])).toBeGreaterThan(0);
    expect(late.headers['x-request-id']).toBe('late-on-kept-alive');
    expect(late.headers.connection).toBe('close');
    expect(JSON.parse(late.body)).toMatchObject({
      type: 'urn:pos-read-api:problem:service-unavailable',
      status: 503,
      requestId: 'late-on-kept-alive',
    });
    await expect(closing).resolves.toEqual({ cutRequests: 0 });
  });

  it('should cut a request still running after SHUTDOWN_TIMEOUT_MS and close anyway', async () => {
    const ops = await startOpsApp(ctx.db);
    const token = await getToken(ops.baseUrl, user.username, user.password);
    const gate = gateQueries(ops.app, /pos_sales/);
    const slow = http(ops.baseUrl, '/api/v1.0/sales', { headers: bearer(token) }).catch(
      (error: Error) => error,
    );
    await gate.entered;
    const started = Date.now();
    try {
      await expect(closeGracefully(ops.app, 500)).resolves.toEqual({ cutRequests: 1 });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(await slow).toMatchObject({ message: 'fetch failed' });
    } finally {
      gate.open();
    }
  });

  it('should exit 0 on SIGTERM when idle (a real process running src/main.ts)', async () => {
    const service = await spawnService({
      DATA_DIR: ctx.db.dataDir,
      ...(ctx.db.appDatabaseUrl ? { DATABASE_URL: ctx.db.appDatabaseUrl } : {}),
    });
    expect((await http(service.managementUrl, '/health/ready')).status).toBe(200);
    expect((await http(service.baseUrl, '/metrics')).status).toBe(404);
    service.child.kill('SIGTERM');
    await expect(service.exited).resolves.toEqual({ code: 0, signal: null });
    const lines = service
      .output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['SIGTERM received: shutting down', 'Stopped']),
    );
  });

  it('should finish a TransactionDetailReport that a slow client is still reading on SIGTERM, with its full body, then exit 0', async () => {
    // About 25k rows (~10 MB of JSON): more than the socket buffers hold, so the report is still
    // streaming, held by backpressure, while the client reads nothing.
    const seeded = await seedStreamingReport(ctx.db.db, 20260501, 7);
    const service = await spawnService({
      DATA_DIR: ctx.db.dataDir,
      ...(ctx.db.appDatabaseUrl ? { DATABASE_URL: ctx.db.appDatabaseUrl } : {}),
    });
    const report = await getWithoutReading(
      `${service.baseUrl}${REPORT}?From=2026-05-01&To=2026-05-11`,
      bearer(reportToken(seeded.shopCodes)),
    );
    expect(report.status).toBe(200);
    await eventually(async () => (await inFlight(service.managementUrl)) === 1);

    service.child.kill('SIGTERM');
    await eventually(async () => (await readyStatus(service.managementUrl)) === 503);
    await new Promise((r) => setTimeout(r, 500));
    // Still draining: the report holds the process open until the client has read it.
    expect(await inFlight(service.managementUrl)).toBe(1);
    expect(service.child.exitCode).toBeNull();

    const body = JSON.parse(await report.readAll());
    expect(body.rows).toHaveLength(seeded.lines);
    expect(body.totals).toMatchObject({
      lines: expect.any(Number),
      voidedLines: expect.any(Number),
    });
    expect(body.totals.lines + body.totals.voidedLines).toBe(seeded.lines);
    await expect(service.exited).resolves.toEqual({ code: 0, signal: null });
  });

  if (ctx.kind !== 'mysql') return;

  describe('a real process with a slow database [mariadb]', () => {
    let proxy: TcpProxy;

    beforeEach(async () => {
      const direct = new URL(ctx.db.appDatabaseUrl as string);
      proxy = await TcpProxy.start(direct.hostname, Number(direct.port || 3306));
    });
    afterEach(async () => {
      await proxy.close();
    });

    const startBehindProxy = (env: Record<string, string>) => {
      const viaProxy = new URL(ctx.db.appDatabaseUrl as string);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      return spawnService({
        DATABASE_URL: viaProxy.toString(),
        DATABASE_QUERY_TIMEOUT_MS: '30000',
        ...env,
      });
    };

    it('should complete the request in flight on SIGTERM, then exit 0', async () => {
      const service = await startBehindProxy({});
      const token = await getToken(service.baseUrl, user.username, user.password);
      proxy.freeze();
      const slow = http(service.baseUrl, `/api/v1.0/sales?ShopCode=${shop}`, {
        headers: bearer(token),
      });
      await eventually(async () => (await inFlight(service.managementUrl)) === 1);

      service.child.kill('SIGTERM');
      await eventually(async () => (await readyStatus(service.managementUrl)) === 503);
      await proxy.restore();
      const res = await slow;
      expect(res.status).toBe(200);
      await expect(service.exited).resolves.toEqual({ code: 0, signal: null });
    });

    it('should cut the request after SHUTDOWN_TIMEOUT_MS and exit 1, in bounded time', async () => {
      const service = await startBehindProxy({ SHUTDOWN_TIMEOUT_MS: '1000' });
      const token = await getToken(service.baseUrl, user.username, user.password);
      proxy.freeze();
      const slow = http(service.baseUrl, '/api/v1.0/sales', { headers: bearer(token) }).catch(
        (error: Error) => error,
      );
      await eventually(async () => (await inFlight(service.managementUrl)) === 1);
      const started = Date.now();
      service.child.kill('SIGTERM');
      await expect(service.exited).resolves.toEqual({ code: 1, signal: null });
      expect(Date.now() - started).toBeLessThan(1_000 + 5_000 + 1_000);
      expect(await slow).toMatchObject({ message: 'fetch failed' });
      expect(service.output()).toMatch(/cutting 1 request/);
    });
  });
});
