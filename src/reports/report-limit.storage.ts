import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';

export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** Bounds on every Redis wait, so that a Redis that is down or hung never holds a request. */
const REDIS_TIMEOUT_MS = 1000;

/**
 * Where the report's call counters live: Redis (`@nest-lab/throttler-storage-redis`) when
 * REDIS_URL is set, so every instance counts the same calls; otherwise @nestjs/throttler's
 * in-memory storage. Only the report uses it: the token route's per-IP limit keeps the
 * ThrottlerModule's in-memory storage and never depends on Redis.
 *
 * Redis failures are not hidden: `increment` rejects at once (no offline queue, bounded connect
 * and command times) and the report's guard answers 503. The client reconnects in the background.
 */
@Injectable()
export class ReportLimitStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReportLimit');
  private readonly redis: Redis | null;
  private readonly store: ThrottlerStorage;
  private readonly memory: ThrottlerStorageService | null;
  private reachable = true;

  constructor(config: AppConfig) {
    if (config.REDIS_URL) {
      this.redis = new Redis(config.REDIS_URL, {
        keyPrefix: config.REDIS_KEY_PREFIX,
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: REDIS_TIMEOUT_MS,
        commandTimeout: REDIS_TIMEOUT_MS,
        // ioredis waits this long for a socket to close on disconnect, even one already gone.
        disconnectTimeout: 100,
        retryStrategy: (attempt) => Math.min(attempt * 250, 5000),
      });
      // An 'error' listener is required: without one, an outage would be an unhandled event.
      this.redis.on('error', (error: Error) => this.markDown(error));
      this.redis.on('ready', () => this.markUp());
      this.store = new ThrottlerStorageRedisService(this.redis);
      this.memory = null;
    } else {
      this.redis = null;
      this.memory = new ThrottlerStorageService();
      this.store = this.memory;
    }
  }

  /** Connects before the first request when Redis is there; start-up never waits on an outage. */
  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    await this.redis.connect().catch((error: Error) => this.markDown(error));
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return this.store.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect(false);
    this.memory?.onApplicationShutdown();
  }

  private markDown(error: Error): void {
    if (!this.reachable) return;
    this.reachable = false;
    this.logger.warn(
      `Redis of the report limit is unreachable (${error.message}): the report answers 503 until it returns.`,
    );
  }

  private markUp(): void {
    if (this.reachable) return;
    this.reachable = true;
    this.logger.log('Redis of the report limit is reachable again.');
  }
}
