import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';

const PING_TIMEOUT_MS = 1_000;

/** Whether Redis answered a ping, and why not when it did not. */
export type RedisReachability = { up: true } | { up: false; message: string };

/**
 * Pings REDIS_URL with a client of its own (one attempt per command, a short timeout), so a probe
 * or a scrape never waits on the report limiter's retries. Read by readiness (an entry that never
 * fails it) and by the `pos_api_redis_up` gauge.
 */
@Injectable()
export class RedisHealthIndicator implements OnApplicationShutdown {
  private client?: Redis;

  constructor(private readonly config: AppConfig) {}

  get configured(): boolean {
    return !!this.config.REDIS_URL;
  }

  /** Never rejects; answers within PING_TIMEOUT_MS. */
  async ping(): Promise<RedisReachability> {
    try {
      const answer = await this.withTimeout(this.redis().ping());
      return answer === 'PONG'
        ? { up: true }
        : { up: false, message: `unexpected answer ${String(answer)}` };
    } catch (error) {
      return { up: false, message: error instanceof Error ? error.message : String(error) };
    }
  }

  onApplicationShutdown(): void {
    this.client?.disconnect(false);
    this.client = undefined;
  }

  private redis(): Redis {
    this.client ??= new Redis(this.config.REDIS_URL as string, {
      maxRetriesPerRequest: 1,
      connectTimeout: PING_TIMEOUT_MS,
      // Closing never waits for a socket that never opened (the default holds the process 2 s).
      disconnectTimeout: 100,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    // Errors surface through ping(); without a listener ioredis would print them.
    this.client.on('error', () => undefined);
    return this.client;
  }

  private withTimeout<T>(promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)),
        PING_TIMEOUT_MS,
      );
      promise.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }
}
