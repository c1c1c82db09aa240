import Redis from 'ioredis';

/**
 * A Redis client whose every wait is bounded, so that a Redis that is down or hung never holds a
 * request: no offline queue, `timeoutMs` to connect and per command, reconnecting in the
 * background. Connects on `connect()` (start-up never waits on an outage). The caller adds the
 * 'error' listener an outage needs.
 */
export function boundedRedis(
  url: string,
  options: { keyPrefix: string; timeoutMs: number; retriesPerRequest: number },
): Redis {
  return new Redis(url, {
    keyPrefix: options.keyPrefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: options.retriesPerRequest,
    connectTimeout: options.timeoutMs,
    commandTimeout: options.timeoutMs,
    // ioredis waits this long for a socket to close on disconnect, even one already gone.
    disconnectTimeout: 100,
    retryStrategy: (attempt) => Math.min(attempt * 250, 5000),
  });
}
