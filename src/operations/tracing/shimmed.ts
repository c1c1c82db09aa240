import { isWrapped } from '@opentelemetry/instrumentation';

/**
 * The function an instrumentation wrapped, when `fn` is shimmer's wrapper of it (the
 * instrumentations' patcher keeps the original beside the wrapper as `__original`); undefined
 * for any other function. Used to run the original past the instrumentation where its work would
 * record nothing (recorded-queries.ts, request-sampling.ts).
 */
export function wrappedOriginal<T extends (...args: never[]) => unknown>(fn: T): T | undefined {
  return isWrapped(fn) ? (fn.__original as T) : undefined;
}
