import type { FastifyServerOptions } from 'fastify';
import type { AppConfig } from '../../config/app-config';

/** How often Node looks for requests past their headers or request timeout. */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * The HTTP server's timeouts, as Fastify options (docs/operations.md, "Timeouts"):
 *
 * - `requestTimeout`: the whole request (headers and body) must arrive within
 *   REQUEST_TIMEOUT_MS, or the client gets a 408 problem (client-error.handler.ts) and the
 *   connection is closed. It covers receiving the request only, never the response: a report
 *   that streams for minutes to a client who reads is not cut.
 * - `headersTimeout`: the request line and headers within HEADERS_TIMEOUT_MS (slowloris).
 * - `keepAliveTimeout` and `connectionTimeout`: a kept-alive connection without a new request,
 *   or a socket without any traffic either way, closes after IDLE_TIMEOUT_MS.
 *
 * Node checks the first two every `connectionsCheckingInterval` (30 s by default), so a timeout
 * could fire up to 30 s late; once a second keeps it close to the value configured.
 */
export function serverTimeouts(
  config: Pick<AppConfig, 'REQUEST_TIMEOUT_MS' | 'HEADERS_TIMEOUT_MS' | 'IDLE_TIMEOUT_MS'>,
): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout' | 'connectionTimeout'> & {
  http: { headersTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.IDLE_TIMEOUT_MS,
    connectionTimeout: config.IDLE_TIMEOUT_MS,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
  };
}
