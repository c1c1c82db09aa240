import { trace } from '@opentelemetry/api';
import { wrappedOriginal } from './shimmed';

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Whether the current span exists and records nothing (its request was not sampled). */
export function underUnsampledSpan(): boolean {
  const span = trace.getActiveSpan();
  return span !== undefined && !span.isRecording();
}

/**
 * mysql2's instrumentation wraps `query` and `execute` of the connection class: for every query it
 * builds the connection's attributes, starts a span, wraps the callback (four property
 * definitions) and masks the statement, also under a request that is not sampled, where the
 * span records nothing (every standard sampler decides a child as it decided its parent).
 * Measured, about 15 µs a query (docs/performance.md, "Tracing"). This puts a dispatch in front
 * of each wrapped method: under an unsampled request the original method runs, otherwise the
 * instrumentation's, so every recorded query (and every query outside a request, a root span)
 * gets its span as before. Returns how many methods it dispatches: none when the instrumentation
 * did not patch them (every query then goes through the instrumentation, as without this).
 */
export function skipUnsampledQueries(connectionClass: { prototype: object }): number {
  let dispatched = 0;
  let prototype: object | null = connectionClass.prototype;
  while (prototype && prototype !== Object.prototype) {
    const methods = prototype as Record<string, unknown>;
    for (const name of ['query', 'execute']) {
      if (!Object.prototype.hasOwnProperty.call(methods, name)) continue;
      const traced = methods[name] as Method;
      const original = wrappedOriginal(traced);
      if (!original) continue;
      methods[name] = function (this: unknown, ...args: unknown[]): unknown {
        const method: Method = underUnsampledSpan() ? original : traced;
        return method.apply(this, args);
      };
      dispatched++;
    }
    prototype = Object.getPrototypeOf(prototype) as object | null;
  }
  return dispatched;
}
