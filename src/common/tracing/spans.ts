import type * as Otel from '@opentelemetry/api';

/**
 * The service's own spans, called from the few places that matter (the DB reads, the hash queue,
 * the report's chunks, the feed's second read, the caller's scope). Until operations/tracing
 * starts the SDK (OTEL_EXPORTER_OTLP_ENDPOINT set), nothing here loads OpenTelemetry: every helper
 * runs the work as it is and returns.
 *
 * Attribute values are ids and numbers only: never a token, password, cursor or SQL parameter
 * (the exporter's redaction is the second line: operations/tracing/redacted-spans.ts).
 */

let api: typeof Otel | undefined;
let tracer: Otel.Tracer | undefined;
/** Set when mysql2's instrumentation makes a span for every query (decision 28.9). */
let driverSpans = false;
/** The context value naming the pool of the read under way, for the driver's span. */
let readPoolKey: symbol | undefined;

/**
 * Called once by operations/tracing after the SDK is registered. `mysql2Spans`: the driver's
 * instrumentation is in place, so a read on MySQL/MariaDB gets its span from the driver (with
 * the pool added, `poolOfRead`) rather than a `db.read` span of the service's over it.
 */
export function enableSpans(otel: typeof Otel, options: { mysql2Spans?: boolean } = {}): void {
  api = otel;
  tracer = otel.trace.getTracer('pos-read-api');
  driverSpans = options.mysql2Spans === true;
  readPoolKey = otel.createContextKey('pos_api.db.pool');
}

export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

/**
 * Whether the current span exists and records nothing (its request was not sampled). Every
 * standard sampler decides a child as it decided its parent (parent-based, or the same trace
 * id's ratio), so a span started under it would record nothing either: the helpers skip it.
 * No current span at all (work started outside a request) is not "not recording": a root span.
 */
function underUnsampledSpan(): boolean {
  const span = api?.trace.getActiveSpan();
  return span !== undefined && !span.isRecording();
}

/**
 * Runs `work` in a child span of the current one (a no-op when tracing is off, and when the
 * request is not sampled: the span would record nothing, and skipping it saves its ids,
 * sampler call and context switch on every read).
 */
export function inSpan<T>(
  name: string,
  attributes: Otel.Attributes,
  work: () => Promise<T>,
): Promise<T> {
  if (!tracer || underUnsampledSpan()) return work();
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      // The error's class only: a driver's message can hold the SQL with its values.
      span.setStatus({ code: 2, message: error instanceof Error ? error.name : 'error' });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Runs a database read naming its pool (`primary`, `replica1`, ...). A read through mysql2 whose
 * instrumentation is in place makes one span, the driver's: the pool is carried in the context
 * and added to that span as it starts (`poolOfRead`, by the tracing's span processor), instead of
 * a `db.read` span over it (decision 28.9: two spans a page fewer). Elsewhere (SQLite, which has
 * no driver span) a `db.read` span with the pool. Nothing under an unsampled request, as inSpan.
 */
export function inRead<T>(pool: string, viaMysql2: boolean, read: () => Promise<T>): Promise<T> {
  if (!tracer || underUnsampledSpan()) return read();
  if (viaMysql2 && driverSpans && api && readPoolKey) {
    return api.context.with(api.context.active().setValue(readPoolKey, pool), read);
  }
  return inSpan('db.read', { 'pos_api.db.pool': pool }, read);
}

/** The pool of the read a span starts in (see inRead), or undefined outside one. */
export function poolOfRead(context: Otel.Context): string | undefined {
  const pool = readPoolKey && context.getValue(readPoolKey);
  return typeof pool === 'string' ? pool : undefined;
}

/** Attributes of the request's current span (user id, shop count, page size, caughtUp). */
export function annotate(attributes: Otel.Attributes): void {
  api?.trace.getActiveSpan()?.setAttributes(attributes);
}

/** Names the request's server span after its route template, never the URL with its query. */
export function nameRequestSpan(method: string, route: string | undefined): void {
  const span = api?.trace.getActiveSpan();
  if (!span) return;
  span.updateName(route ? `${method} ${route}` : method);
  if (route) span.setAttribute('http.route', route);
}

/** The current trace's id (32 hex digits), or undefined when tracing is off. */
export function currentTraceId(): string | undefined {
  const context = api?.trace.getActiveSpan()?.spanContext();
  return context && api?.isSpanContextValid(context) ? context.traceId : undefined;
}
