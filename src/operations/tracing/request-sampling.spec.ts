import * as otel from '@opentelemetry/api';
import { isTracingSuppressed, W3CTraceContextPropagator } from '@opentelemetry/core';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { EmitterContextManager } from './emitter-context-manager';
import { IncomingSampling, PresetTraceIds, samplerFromEnv } from './request-sampling';

/** What the server saw of one request: through the instrumentation or past it. */
interface Seen {
  /** The instrumentation's ignoreIncomingRequestHook said to leave it alone. */
  ignored?: boolean;
  /** The emit the instrumentation wrapped ran without it (an unsampled request, 28.11). */
  bypassed?: boolean;
  /** The current span's trace id, whether it records, whether tracing is suppressed... */
  current?: { traceId: string; recording: boolean; suppressed: boolean };
  /** ...or the server span the instrumentation started. */
  server?: { traceId: string; recording: boolean; parent?: string };
}

const currentSpan = (): Seen['current'] => {
  const span = otel.trace.getActiveSpan();
  return (
    span && {
      traceId: span.spanContext().traceId,
      recording: span.isRecording(),
      suppressed: isTracingSuppressed(otel.context.active()),
    }
  );
};

/**
 * A server prototype whose emit is wrapped as the HTTP instrumentation wraps it (shimmer's
 * `__original` beside it): an ignored request runs as it is, any other gets a server span from
 * the SDK (its sampler and ids). The original emit notes a request that reached it without the
 * wrapper.
 */
function instrumentedServer(sampling: () => IncomingSampling, tracer: otel.Tracer, seen: Seen[]) {
  let wrapped = false;
  const original = function (this: unknown, event: string | symbol): boolean {
    if (event === 'request' && !wrapped) seen.push({ bypassed: true, current: currentSpan() });
    return event === 'request';
  };
  const through = (self: unknown, event: string | symbol): boolean => {
    wrapped = true;
    try {
      return original.call(self, event);
    } finally {
      wrapped = false;
    }
  };
  const emit = function (this: unknown, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'request') return through(this, event);
    const request = args[0] as IncomingMessage;
    if (sampling().ignored(request)) {
      seen.push({ ignored: true, current: currentSpan() });
      return through(this, event);
    }
    const parent = otel.propagation.extract(otel.ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan('GET', { kind: otel.SpanKind.SERVER }, parent);
    seen.push({
      server: {
        traceId: span.spanContext().traceId,
        recording: span.isRecording(),
        parent: otel.trace.getSpanContext(parent)?.spanId,
      },
    });
    span.end();
    return through(this, event);
  };
  Object.defineProperty(emit, '__original', { value: original });
  Object.defineProperty(emit, '__unwrap', { value: () => undefined });
  Object.defineProperty(emit, '__wrapped', { value: true });
  return { emit };
}

/** A request (an emitter, as node:http's) on the API's port, or on another. */
const request = (port = 8080, headers: Record<string, string> = {}) =>
  Object.assign(new EventEmitter(), {
    socket: { localPort: port },
    headers,
    method: 'GET',
  }) as unknown as IncomingMessage;

function setUp(env: NodeJS.ProcessEnv, trustIncoming = false) {
  const sampler = samplerFromEnv(env);
  const ids = new PresetTraceIds();
  const provider = new NodeTracerProvider({ sampler, idGenerator: ids });
  provider.register({
    propagator: trustIncoming ? new W3CTraceContextPropagator() : null,
    contextManager: new EmitterContextManager().enable(),
  });
  const seen: Seen[] = [];
  const sampling = new IncomingSampling(
    sampler,
    ids,
    trustIncoming,
    (r) => r.socket.localPort === 9464,
  );
  const server = instrumentedServer(() => sampling, provider.getTracer('t'), seen);
  expect(sampling.install(server)).toBe(true);
  const emit = (r: IncomingMessage, response: object = new EventEmitter()) =>
    server.emit.call({}, 'request', r, response);
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

  it('should emit an unsampled request past the instrumentation, under a non-recording span of a new trace id with tracing suppressed', () => {
    const { seen, emit } = setUp({ OTEL_TRACES_SAMPLER: 'always_off' });
    emit(request());
    emit(request());
    expect(seen.map((s) => s.bypassed)).toEqual([true, true]);
    const [a, b] = seen.map((s) => s.current);
    expect(a).toEqual({
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      recording: false,
      suppressed: true,
    });
    expect(otel.isValidTraceId(a!.traceId)).toBe(true);
    expect(b!.traceId).not.toBe(a!.traceId);
  });

  it("should bind an unsampled request's and response's listeners to its context, as the instrumentation does", () => {
    const { seen, emit } = setUp({ OTEL_TRACES_SAMPLER: 'always_off' });
    const incoming = request();
    const response = new EventEmitter();
    emit(incoming, response);
    const heard: Array<Seen['current']> = [];
    incoming.on('end', () => heard.push(currentSpan()));
    response.on('finish', () => heard.push(currentSpan()));
    // Emitted later, from outside any context (as the socket's ticks are).
    otel.context.with(otel.ROOT_CONTEXT, () => {
      incoming.emit('end');
      response.emit('finish');
    });
    expect(heard).toEqual([seen[0].current, seen[0].current]);
    expect(heard[0]).toMatchObject({ recording: false, suppressed: true });
  });

  it('should let a sampled request through to a recording server span', () => {
    const { seen, emit } = setUp({ OTEL_TRACES_SAMPLER: 'always_on' });
    emit(request());
    expect(seen).toEqual([{ server: { traceId: expect.any(String), recording: true } }]);
  });

  it('should sample at the ratio, not its square: the SDK decides again on the same trace id', () => {
    const { seen, emit } = setUp({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.5',
    });
    for (let i = 0; i < 4000; i++) emit(request());
    const through = seen.filter((s) => s.server);
    // Every request let through is recorded, the others passed it by: the decisions agree.
    expect(through.every((s) => s.server!.recording)).toBe(true);
    expect(seen.every((s) => s.server !== undefined || s.bypassed === true)).toBe(true);
    expect(through.length / seen.length).toBeGreaterThan(0.45);
    expect(through.length / seen.length).toBeLessThan(0.55);
  });

  it("should follow a trusted caller's sampled flag and keep its trace id either way", () => {
    const { seen, emit } = setUp({}, true);
    const caller = '4bf92f3577b34da6a3ce929d0e0e4736';
    emit(request(8080, { traceparent: `00-${caller}-00f067aa0ba902b7-00` }));
    emit(request(8080, { traceparent: `00-${caller}-00f067aa0ba902b7-01` }));
    expect(seen).toEqual([
      { bypassed: true, current: { traceId: caller, recording: false, suppressed: true } },
      {
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
    expect(server.emit.call({}, 'request', request(9464), {})).toBe(true);
    expect(seen).toEqual([
      { ignored: true, current: undefined },
      { ignored: true, current: undefined },
    ]);
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
