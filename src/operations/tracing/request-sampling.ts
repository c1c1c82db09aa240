import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  RandomIdGenerator,
  type IdGenerator,
  type Sampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { wrappedOriginal } from './shimmed';

/** The ratio of OTEL_TRACES_SAMPLER_ARG, 1 when it is missing or outside [0, 1] (as the SDK). */
function ratioOf(arg: string | undefined): number {
  const ratio = arg === undefined || arg.trim() === '' ? NaN : Number(arg);
  return ratio >= 0 && ratio <= 1 ? ratio : 1;
}

/**
 * The sampler OTEL_TRACES_SAMPLER names (the specification's six values; OTEL_TRACES_SAMPLER_ARG
 * for the ratio), parent-based always-on when it is unset or unknown: what the SDK would build
 * from the environment, built here so that one instance decides both before the HTTP
 * instrumentation (`IncomingSampling`) and in the SDK.
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const ratio = (): Sampler => new TraceIdRatioBasedSampler(ratioOf(env.OTEL_TRACES_SAMPLER_ARG));
  switch ((env.OTEL_TRACES_SAMPLER ?? '').trim()) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'traceidratio':
      return ratio();
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Random ids, except the next trace id when one was chosen beforehand (`preset`): the request's,
 * on which the sampler already decided. Taken once; a span that starts under a valid parent
 * takes its parent's trace id and no preset one.
 */
export class PresetTraceIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private next: string | undefined;

  preset(traceId: string | undefined): void {
    this.next = traceId;
  }

  generateTraceId(): string {
    const preset = this.next;
    this.next = undefined;
    return preset ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

type Emit = (this: Server, event: string, ...args: unknown[]) => boolean;

/**
 * Decides each API request's sample before the HTTP instrumentation sees it. The instrumentation
 * builds the server span's attributes (the URL parsed, the headers read) before the sampler
 * decides, for every request: most of what tracing cost a request that is not sampled
 * (docs/performance.md, "Tracing"). Here, in front of the `emit` it wrapped:
 * - the trace id is chosen (the caller's, when its traceparent is trusted and valid; a new one
 *   otherwise) and the SDK's own sampler asked, with the context the instrumentation would give it;
 * - not sampled: the request does not pass the instrumentation at all (decision 28.11). It is
 *   emitted by the `emit` the instrumentation wrapped, in a context holding a non-recording span
 *   of that trace id with tracing suppressed under it, the request and response bound to that
 *   context: what the instrumentation does for a request its ignoreIncomingRequestHook ignores,
 *   without its wrapper. Its log lines and problem bodies still carry the trace id; nothing of the
 *   request is recorded (every standard sampler decides a child as its parent anyway);
 * - sampled: the instrumentation makes its span as before, given the same trace id
 *   (`PresetTraceIds`), so the sampler, deciding again on the same id and parent, decides the
 *   same: with a ratio, a request is sampled at the ratio, not at its square.
 * The standard samplers decide on the trace id and parent only, so the two decisions agree.
 */
export class IncomingSampling {
  constructor(
    private readonly sampler: Sampler,
    private readonly ids: PresetTraceIds,
    /** Whether a caller's traceparent is read (decision 28.4): a propagator is installed. */
    private readonly trustIncoming: boolean,
    /** Requests left to the instrumentation as they are (the management port's). */
    private readonly passThrough: (request: IncomingMessage) => boolean,
  ) {}

  /** For the instrumentation's ignoreIncomingRequestHook: the requests it is to leave alone. */
  ignored(request: IncomingMessage): boolean {
    return this.passThrough(request);
  }

  /**
   * Puts the decision in front of the instrumented `emit` of `server` (http.Server.prototype).
   * Returns false, and leaves every request to the instrumentation and the SDK's sampler as
   * without it, when that `emit` is not the instrumentation's.
   */
  install(prototype: object): boolean {
    const server = prototype as { emit: Emit };
    const instrumented = server.emit;
    const original = wrappedOriginal(instrumented);
    if (!original) return false;
    const decide = (self: Server, request: IncomingMessage, response: ServerResponse): boolean =>
      this.emitRequest(instrumented, original, self, request, response);
    server.emit = function (this: Server, event: string, ...args: unknown[]): boolean {
      if (event !== 'request') return instrumented.call(this, event, ...args);
      return decide(this, args[0] as IncomingMessage, args[1] as ServerResponse);
    };
    return true;
  }

  private emitRequest(
    instrumented: Emit,
    original: Emit,
    server: Server,
    request: IncomingMessage,
    response: ServerResponse,
  ): boolean {
    if (this.passThrough(request)) return instrumented.call(server, 'request', request, response);
    const parent: Context = this.trustIncoming
      ? propagation.extract(ROOT_CONTEXT, request.headers)
      : ROOT_CONTEXT;
    const parentSpan = trace.getSpanContext(parent);
    const validParent = parentSpan !== undefined && trace.isSpanContextValid(parentSpan);
    const traceId = validParent ? parentSpan.traceId : this.ids.generateTraceId();
    const { decision } = this.sampler.shouldSample(
      parent,
      traceId,
      request.method ?? 'GET',
      SpanKind.SERVER,
      {},
      [],
    );
    if (decision === SamplingDecision.NOT_RECORD) {
      const span = trace.wrapSpanContext({
        traceId,
        spanId: this.ids.generateSpanId(),
        traceFlags: TraceFlags.NONE,
      });
      const unsampled = suppressTracing(trace.setSpan(parent, span));
      context.bind(unsampled, request);
      context.bind(unsampled, response);
      return context.with(unsampled, original, server, 'request', request, response);
    }
    this.ids.preset(validParent ? undefined : traceId);
    try {
      return instrumented.call(server, 'request', request, response);
    } finally {
      this.ids.preset(undefined);
    }
  }
}
