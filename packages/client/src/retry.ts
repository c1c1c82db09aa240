/** Waiting and back-off: every wait is bounded and can be cancelled with an AbortSignal. */

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Retries of a GET after a 503/502/504 or a network error (default 4). */
  maxRetries?: number;
  /** First back-off delay (default 500 ms); doubles each time, with full jitter. */
  baseDelayMs?: number;
  /** Cap of one back-off delay (default 20 s). */
  maxDelayMs?: number;
  /** Longest Retry-After the client waits for on a 429 (default 65 s); longer: it throws. */
  maxRateLimitWaitMs?: number;
  /** 429s waited for in one call before it throws RateLimitError (default 2). */
  maxRateLimitRetries?: number;
}

export type ResolvedRetry = Required<RetryOptions>;

export const DEFAULT_RETRY: ResolvedRetry = {
  maxRetries: 4,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRateLimitWaitMs: 65_000,
  maxRateLimitRetries: 2,
};

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new DOMException('The operation was aborted.', 'AbortError');
}

/** setTimeout as a promise that rejects with the signal's reason when it is aborted. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Delay before retry number `attempt` (0-based): exponential with full jitter, capped, and never
 * shorter than what the service asked for in Retry-After.
 */
export function backoffDelay(
  attempt: number,
  options: ResolvedRetry,
  random: () => number,
  retryAfterSeconds?: number,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  const jittered = Math.round(random() * ceiling);
  const asked = retryAfterSeconds === undefined ? 0 : retryAfterSeconds * 1000;
  return Math.min(options.maxDelayMs, Math.max(jittered, asked));
}
