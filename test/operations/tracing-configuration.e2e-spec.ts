import { spawnSync } from 'node:child_process';
import { createServer, Server, Socket } from 'node:net';
import * as path from 'node:path';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser, CreatedUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import {
  freePort,
  outputLine,
  ServiceEnv,
  ServiceProcess,
  spawnService,
} from '../support/service-process';
import { OtlpReceiver } from './support/otlp-receiver';
import { eventually } from '../support/eventually';

/**
 * Tracing's configuration, on the built service: off loads nothing, the protocol variable picks
 * the encoding, a caller's traceparent is continued only when trusted, and a bad configuration
 * (collector refusing or hanging, malformed OTEL_* values) never stops the service nor holds its
 * answers: the spans are dropped with one warning a minute.
 */

jest.setTimeout(120_000);

const WARNING = /Traces are not exported/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase(
  'Tracing configuration',
  (ctx) => {
    let user: CreatedUser;
    const started: ServiceProcess[] = [];

    beforeAll(async () => {
      user = await createUser(ctx.db.db, { shops: [await createShop(ctx.db.db)] });
    });

    afterAll(async () => {
      for (const service of started) service.child.kill('SIGTERM');
      await Promise.all(started.map((s) => s.exited));
    });

    async function serve(env: ServiceEnv): Promise<ServiceProcess> {
      const service = await spawnService(
        { DATA_DIR: ctx.db.dataDir, OTEL_BSP_SCHEDULE_DELAY: '50', ...env },
        { built: true },
      );
      started.push(service);
      return service;
    }

    /** Three bursts of requests, far enough apart for several exports; all must answer 200. */
    async function bursts(service: ServiceProcess): Promise<void> {
      const token = await getToken(service.baseUrl, user.username, user.password);
      for (let burst = 0; burst < 3; burst++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () =>
            http(service.baseUrl, '/api/v1.0/shops', { headers: bearer(token) }),
          ),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
        await sleep(300);
      }
    }

    const warnings = (service: ServiceProcess) =>
      service
        .output()
        .split('\n')
        .filter((l) => WARNING.test(l));

    it('should not load OpenTelemetry at all when no OTLP endpoint is set', () => {
      const startTracing = path.join(
        __dirname,
        '../../dist/src/operations/tracing/start-tracing.js',
      );
      const loaded = (env: NodeJS.ProcessEnv) =>
        spawnSync(
          process.execPath,
          [
            '-e',
            `require(${JSON.stringify(startTracing)}); console.log(Object.keys(require.cache).filter((f) => f.includes('@opentelemetry')).length)`,
          ],
          { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' },
        ).stdout.trim();
      expect(loaded({})).toBe('0');
      expect(Number(loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' }))).toBeGreaterThan(
        10,
      );
    });

    it('should send OTLP/protobuf by default', async () => {
      const receiver = new OtlpReceiver();
      const service = await serve({ OTEL_EXPORTER_OTLP_ENDPOINT: await receiver.start() });
      try {
        await bursts(service);
        await eventually(() => receiver.requests.length > 0, 10_000);
        expect(receiver.requests[0]).toMatchObject({
          path: '/v1/traces',
          contentType: 'application/x-protobuf',
        });
        expect(warnings(service)).toEqual([]);
      } finally {
        await receiver.close();
      }
    });

    it("should continue a caller's trace with TRACE_TRUST_INCOMING=true", async () => {
      const receiver = new OtlpReceiver();
      const service = await serve({
        OTEL_EXPORTER_OTLP_ENDPOINT: await receiver.start(),
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        TRACE_TRUST_INCOMING: 'true',
      });
      try {
        const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
        const res = await http(service.baseUrl, '/api/v1.0/Token', {
          method: 'POST',
          json: { username: user.username, password: user.password },
          headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
        });
        expect(res.status).toBe(200);
        await receiver.until((spans) => spans.some((s) => s.name === 'POST /api/v1.0/Token'));
        const root = receiver.spans.find((s) => s.name === 'POST /api/v1.0/Token');
        expect(root).toMatchObject({ traceId, parentSpanId: '00f067aa0ba902b7' });
      } finally {
        await receiver.close();
      }
    });

    it('should give a request that is not sampled a trace id in its problem body and log line, and export nothing', async () => {
      const receiver = new OtlpReceiver();
      const service = await serve({
        OTEL_EXPORTER_OTLP_ENDPOINT: await receiver.start(),
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_always_off',
        TRACE_TRUST_INCOMING: 'true',
      });
      const logLine = async (requestId: string) =>
        JSON.parse(
          await outputLine(service, new RegExp(`"requestId":"${requestId}".*"msg":"GET `)),
        ) as { traceId?: string };
      try {
        const token = await getToken(service.baseUrl, user.username, user.password);
        const res = await http(service.baseUrl, '/api/v1.0/sales?ShopCode=&Limit=0', {
          headers: { ...bearer(token), 'X-Request-Id': 'unsampled-1' },
        });
        expect(res.status).toBe(400);
        expect(res.body.traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(res.body.traceId).not.toMatch(/^0+$/);
        expect((await logLine('unsampled-1')).traceId).toBe(res.body.traceId);
        // A trusted caller's unsampled trace: its trace id, still nothing recorded.
        const caller = '0af7651916cd43dd8448eb211c80319c';
        const continued = await http(service.baseUrl, '/api/v1.0/payments', {
          headers: {
            traceparent: `00-${caller}-b7ad6b7169203331-00`,
            'X-Request-Id': 'unsampled-2',
          },
        });
        expect(continued.status).toBe(401);
        expect(continued.body.traceId).toBe(caller);
        expect((await logLine('unsampled-2')).traceId).toBe(caller);
        await bursts(service);
        await sleep(500);
        expect(receiver.spans).toEqual([]);
      } finally {
        await receiver.close();
      }
    });

    it('should keep answering when the collector refuses connections, with one warning', async () => {
      const service = await serve({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
      });
      await bursts(service);
      await outputLine(service, WARNING);
      await bursts(service);
      await sleep(500);
      expect(warnings(service)).toHaveLength(1);
      expect(JSON.parse(warnings(service)[0])).toMatchObject({ level: 'warn', context: 'Tracing' });
    });

    it('should keep answering while the collector holds every export, with one warning', async () => {
      const held: Socket[] = [];
      const hanging: Server = createServer((socket) => held.push(socket));
      const port = await freePort();
      await new Promise<void>((resolve) => hanging.listen(port, '127.0.0.1', resolve));
      try {
        const service = await serve({
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
          OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
        });
        await bursts(service);
        expect(held.length).toBeGreaterThan(0);
        await bursts(service);
        await outputLine(service, WARNING);
        await bursts(service);
        expect(warnings(service)).toHaveLength(1);
      } finally {
        for (const socket of held) socket.destroy();
        await new Promise((resolve) => hanging.close(resolve));
      }
    });

    it('should start and answer with malformed OTEL_* values, naming them in one warning', async () => {
      const service = await serve({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon',
        OTEL_TRACES_SAMPLER: 'sometimes',
        OTEL_BSP_MAX_QUEUE_SIZE: 'lots',
      });
      await bursts(service);
      const warning = JSON.parse(await outputLine(service, WARNING));
      expect(warning.msg).toContain('OTEL_EXPORTER_OTLP_PROTOCOL "carrier-pigeon"');
      expect(warning.msg).toContain('OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL');
      // Logged outside any request: no request's id or trace id on it.
      expect(warning.requestId).toBeUndefined();
      expect(warning.traceId).toBeUndefined();
      await bursts(service);
      expect(warnings(service)).toHaveLength(1);
    });
  },
  { only: ['sqlite'] },
);
