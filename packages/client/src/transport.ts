import { errorOf, NetworkError, retryAfterSeconds } from './errors.js';
import { backoffDelay, ResolvedRetry, Sleep } from './retry.js';
import { ClientLogger, describe, TokenManager } from './token-manager.js';

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  accept?: string;
  /** `Accept-Encoding` to ask for; fetch's default (gzip, deflate, br) when unset. */
  acceptEncoding?: string;
  signal?: AbortSignal;
}

export interface TransportOptions {
  baseUrl: string;
  fetch: typeof fetch;
  tokens: TokenManager;
  retry: ResolvedRetry;
  sleep: Sleep;
  now: () => number;
  random: () => number;
  log: ClientLogger;
}

const TRANSIENT = new Set([502, 503, 504]);

/**
 * Sends a GET to a data route with `Authorization: Bearer <token>` (the header only: the token
 * is never put in the URL), and applies the client rules:
 * - 401: one fresh token and one retry; a second 401 throws AuthenticationError (rule 9);
 * - 429: waits Retry-After when it is within `maxRateLimitWaitMs`, at most
 *   `maxRateLimitRetries` times, else throws RateLimitError;
 * - 502/503/504 and network errors: exponential back-off with jitter, `maxRetries` times.
 * Every wait is cancelled by the signal.
 */
export class Transport {
  constructor(private readonly o: TransportOptions) {}

  url(path: string, query: RequestOptions['query'] = {}): string {
    const url = new URL(this.o.baseUrl.replace(/\/+$/, '') + path);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async get(path: string, options: RequestOptions = {}): Promise<Response> {
    const url = this.url(path, options.query);
    const what = `GET ${path}`;
    let refreshed = false;
    let failures = 0;
    let rateLimited = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const { token } = await this.o.tokens.token();
      let response: Response;
      try {
        response = await this.o.fetch(url, {
          headers: {
            authorization: `Bearer ${token}`,
            accept: options.accept ?? 'application/json',
            ...(options.acceptEncoding ? { 'accept-encoding': options.acceptEncoding } : {}),
          },
          signal: options.signal,
        });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (failures >= this.o.retry.maxRetries) {
          throw new NetworkError(`${what} failed: ${describe(error)} (${failures + 1} attempts).`);
        }
        await this.wait(
          what,
          backoffDelay(failures++, this.o.retry, this.o.random),
          'network',
          options,
        );
        continue;
      }
      if (response.ok) return response;

      const status = response.status;
      if (status === 401) {
        if (refreshed) {
          throw await errorOf(
            response,
            what,
            this.o.now(),
            ' A fresh token was refused too: stopped (contract rule 9: retry once, then stop).',
          );
        }
        await response.body?.cancel();
        refreshed = true;
        this.o.tokens.invalidate(token);
        this.o.log('token.refused', { path, action: 'one fresh token, one retry' });
        continue;
      }
      const retryAfter = retryAfterSeconds(response.headers, this.o.now());
      if (status === 429 && retryAfter !== undefined) {
        const ms = retryAfter * 1000;
        if (
          rateLimited < this.o.retry.maxRateLimitRetries &&
          ms <= this.o.retry.maxRateLimitWaitMs
        ) {
          rateLimited++;
          await response.body?.cancel();
          await this.wait(what, ms, 'rate-limited', options);
          continue;
        }
      }
      if (TRANSIENT.has(status) && failures < this.o.retry.maxRetries) {
        await response.body?.cancel();
        const ms = backoffDelay(failures++, this.o.retry, this.o.random, retryAfter);
        await this.wait(what, ms, `status ${status}`, options);
        continue;
      }
      throw await errorOf(response, what, this.o.now());
    }
  }

  /** Failures in a row a request (or a bulk read's stream) may have before it throws. */
  get maxRetries(): number {
    return this.o.retry.maxRetries;
  }

  /**
   * The back-off before retry `attempt` (0-based) of something that failed mid-way (a bulk
   * read's stream cut), as the requests' own: exponential with jitter, never shorter than
   * Retry-After, cancelled by the signal.
   */
  async backoff(
    what: string,
    attempt: number,
    reason: string,
    signal?: AbortSignal,
    retryAfterSeconds?: number,
  ): Promise<void> {
    const ms = backoffDelay(attempt, this.o.retry, this.o.random, retryAfterSeconds);
    await this.wait(what, ms, reason, { signal });
  }

  private async wait(what: string, ms: number, reason: string, options: RequestOptions) {
    this.o.log('retry.wait', { request: what, reason, delayMs: ms });
    await this.o.sleep(ms, options.signal);
  }
}
