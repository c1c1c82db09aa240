import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { RedisSlidingWindow } from './redis-sliding-window';
import { MemorySlidingWindow, SlidingWindow } from './sliding-window';

export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** Bounds on every Redis wait, so that a Redis that is down or hung never holds a request. */
const REDIS_TIMEOUT_MS = 1000;

/**
 * Where the report's calls are counted, as a sliding window (sliding-window.ts): in Redis when
 * REDIS_URL is set, so every instance counts the same calls; otherwise in memory. Both are the
 * same algorithm, so no 60-second interval holds more than 12 allowed calls either way. Only the
 * report uses it: the token route's per-IP limit keeps the ThrottlerModule's in-memory storage
 * and never depends on Redis.
 *
 * Redis failures are not hidden: `increment` rejects at once (no offline queue, bounded connect
 * and command times) and the report's guard answers 503. The client reconnects in the background.
 */
@Injectable()
export class ReportLimitStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReportLimit');
  private readonly redis: Redis | null;
  private readonly window: SlidingWindow;
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
      this.window = new RedisSlidingWindow(this.redis);
    } else {
      this.redis = null;
      this.window = new MemorySlidingWindow();
    }
  }

  /** Connects before the first request when Redis is there; start-up never waits on an outage. */
  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    await this.redis.connect().catch((error: Error) => this.markDown(error));
  }

  /**
   * One call of `key` within `ttl` ms (the window): refused calls are not recorded, and the
   * wait is until the oldest allowed call leaves the window. The block duration is not used.
   */
  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const { allowed, count, resetMs } = await this.window.hit(key, ttl, limit);
    const resetSeconds = Math.ceil(resetMs / 1000);
    return {
      totalHits: count,
      timeToExpire: resetSeconds,
      isBlocked: !allowed,
      timeToBlockExpire: allowed ? 0 : resetSeconds,
    };
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect(false);
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
