import * as otel from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { IncomingMessage } from 'node:http';
import { IncomingSampling, PresetTraceIds, samplerFromEnv } from './request-sampling';

/** What the instrumented emit saw of one request. */
interface Seen {
  ignored: boolean;
  /** The current span's trace id and whether it records (ignored requests)... */
  current?: { traceId: string; recording: boolean };
  /** ...or the server span the instrumentation would start (the others). */
  server?: { traceId: string; recording: boolean; parent?: string };
}

/**
 * A server prototype whose emit is wrapped as the HTTP instrumentation wraps it: an ignored
 * request runs as it is, any other gets a server span from the SDK (its sampler and ids).
 */
function instrumentedServer(sampling: () => IncomingSampling, tracer: otel.Tracer, seen: Seen[]) {
  const original = function (this: unknown, event: string | symbol): boolean {
    return event === 'request';
  };
  const emit = function (this: unknown, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'request') return original.call(this, event);
    const request = args[0] as IncomingMessage;
    if (sampling().ignored(request)) {
      const span = otel.trace.getActiveSpan();
      seen.push({
        ignored: true,
        current: span && {
          traceId: span.spanContext().traceId,
          recording: span.isRecording(),
        },
      });
      return original.call(this, event);
    }
    const parent = otel.propagation.extract(otel.ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan('GET', { kind: otel.SpanKind.SERVER }, parent);
    seen.push({
      ignored: false,
      server: {
        traceId: span.spanContext().traceId,
        recording: span.isRecording(),
        parent: otel.trace.getSpanContext(parent)?.spanId,
      },
    });
    span.end();
    return original.call(this, event);
  };
  Object.defineProperty(emit, '__original', { value: original });
  Object.defineProperty(emit, '__unwrap', { value: () => undefined });
  Object.defineProperty(emit, '__wrapped', { value: true });
  return { emit };
}

const request = (port = 8080, headers: Record<string, string> = {}) =>
  ({ socket: { localPort: port }, headers, method: 'GET' }) as unknown as IncomingMessage;

function setUp(env: NodeJS.ProcessEnv, trustIncoming = false) {
  const sampler = samplerFromEnv(env);
  const ids = new PresetTraceIds();
  const provider = new NodeTracerProvider({ sampler, idGenerator: ids });
  provider.register({ propagator: trustIncoming ? new W3CTraceContextPropagator() : null });
  const seen: Seen[] = [];
  const sampling = new IncomingSampling(
    sampler,
    ids,
    trustIncoming,
    (r) => r.socket.localPort === 9464,
  );
  const server = instrumentedServer(() => sampling, provider.getTracer('t'), seen);
  expect(sampling.install(server)).toBe(true);
  const emit = (r: IncomingMessage) => server.emit.call({}, 'request', r, {});
  return { seen, emit, server, provider };
}

describe(samplerFromEnv.name, () => {
  it.each([
    [{}, 'ParentBased{root=AlwaysOnSampler'],
    [{ OTEL_TRACES_SAMPLER: 'always_on' }, 'AlwaysOnSampler'],
    [{ OTEL_TRACES_SAMPLER: 'always_off' }, 'AlwaysOffSampler'],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, 'ParentBased{root=AlwaysOffSampler'],
    [
      { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' },
      'TraceIdRatioBased{0.25}',
    ],
    [
      { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' },
      'ParentBased{root=TraceIdRatioBased{1}',
    ],
    [{ OTEL_TRACES_SAMPLER: 'traceidratio' }, 'TraceIdRatioBased{1}'],
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, 'ParentBased{root=AlwaysOnSampler'],
  ])('should build from %j the sampler %s', (env, name) => {
    expect(samplerFromEnv(env).toString()).toContain(name);
  });
});

describe(IncomingSampling.name, () => {
  afterEach(() => {
    otel.trace.disable();
    otel.context.disable();
    otel.propagation.disable();
  });

  it('should leave an unsampled request to the instrumentation as ignored, under a non-recording span of a new trace id', () => {
    const { seen, emit } = setUp({ OTEL_TRACES_SAMPLER: 'always_off' });
    emit(request());
    emit(request());
    expect(seen.map((s) => s.ignored)).toEqual([true, true]);
    const [a, b] = seen.map((s) => s.current);
    expect(a).toEqual({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), recording: false });
    expect(otel.isValidTraceId(a!.traceId)).toBe(true);
    expect(b!.traceId).not.toBe(a!.traceId);
  });

  it('should let a sampled request through to a recording server span', () => {
    const { seen, emit } = setUp({ OTEL_TRACES_SAMPLER: 'always_on' });
    emit(request());
    expect(seen).toEqual([
      { ignored: false, server: { traceId: expect.any(String), recording: true } },
    ]);
  });

  it('should sample at the ratio, not its square: the SDK decides again on the same trace id', () => {
    const { seen, emit } = setUp({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.5',
    });
    for (let i = 0; i < 4000; i++) emit(request());
    const through = seen.filter((s) => !s.ignored);
    // Every request let through is recorded: the two decisions agree.
    expect(through.every((s) => s.server!.recording)).toBe(true);
    expect(through.length / seen.length).toBeGreaterThan(0.45);
    expect(through.length / seen.length).toBeLessThan(0.55);
  });

  it("should follow a trusted caller's sampled flag and keep its trace id either way", () => {
    const { seen, emit } = setUp({}, true);
    const caller = '4bf92f3577b34da6a3ce929d0e0e4736';
    emit(request(8080, { traceparent: `00-${caller}-00f067aa0ba902b7-00` }));
    emit(request(8080, { traceparent: `00-${caller}-00f067aa0ba902b7-01` }));
    expect(seen).toEqual([
      { ignored: true, current: { traceId: caller, recording: false } },
      {
        ignored: false,
        server: { traceId: caller, recording: true, parent: '00f067aa0ba902b7' },
      },
    ]);
  });

  it("should not read a caller's traceparent unless trusted", () => {
    const { seen, emit } = setUp({ OTEL_TRACES_SAMPLER: 'always_off' });
    const caller = '4bf92f3577b34da6a3ce929d0e0e4736';
    emit(request(8080, { traceparent: `00-${caller}-00f067aa0ba902b7-01` }));
    expect(seen[0].current!.traceId).not.toBe(caller);
  });

  it("should leave the management port's requests and other events to the instrumentation as they are", () => {
    const { seen, emit, server } = setUp({ OTEL_TRACES_SAMPLER: 'always_off' });
    emit(request(9464));
    expect(seen).toEqual([{ ignored: true, current: undefined }]);
    expect(server.emit.call({}, 'listening')).toBe(false);
  });

  it('should not install itself in front of an emit the instrumentation did not wrap', () => {
    const sampling = new IncomingSampling(
      samplerFromEnv({}),
      new PresetTraceIds(),
      false,
      () => false,
    );
    const emit = () => true;
    const server = { emit };
    expect(sampling.install(server)).toBe(false);
    expect(server.emit).toBe(emit);
  });
});
