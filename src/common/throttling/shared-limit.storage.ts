import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { boundedRedis } from './bounded-redis';
import { RedisSlidingWindow } from './redis-sliding-window';
import { MemorySlidingWindow, SlidingWindow, WindowHit } from './sliding-window';

export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** Bounds on every Redis wait, so that a Redis that is down or hung never holds a request. */
const REDIS_TIMEOUT_MS = 1000;
/** Refunds kept for Redis's return at most (each is a few dozen bytes). */
const MAX_PENDING_REFUNDS = 10_000;

interface Refund {
  key: string;
  id: string;
  windowMs: number;
}

/**
 * Where the rate limits count calls, as a sliding window (sliding-window.ts): in Redis when
 * REDIS_URL is set, so every instance counts the same calls; otherwise in memory. Both are the
 * same algorithm, so no window ever holds more than the limit's allowed calls either way. The
 * report's limit (12 a minute per user), the digests' budget and the token route's per-address
 * limit use it.
 *
 * Redis failures are not hidden: `increment` rejects at once (no offline queue, bounded connect
 * and command times); each guard decides what an outage means (the report answers 503, the token
 * route counts in this instance's memory meanwhile: `incrementOrLocal`). The client reconnects
 * in the background.
 */
@Injectable()
export class SharedLimitStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('SharedLimits');
  /** This instance's own counts, for the limits that keep counting while Redis is away. */
  private readonly local = new MemorySlidingWindow();
  private readonly redis: Redis | null;
  private readonly window: SlidingWindow;
  private reachable = true;
  /** Refunds Redis could not take yet: sent when it is ready again. */
  private pendingRefunds: Refund[] = [];

  constructor(config: AppConfig) {
    if (config.REDIS_URL) {
      this.redis = boundedRedis(config.REDIS_URL, {
        keyPrefix: config.REDIS_KEY_PREFIX,
        timeoutMs: REDIS_TIMEOUT_MS,
        retriesPerRequest: 1,
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

  /** The Redis client of the limits (bounded waits, the key prefix), or null without REDIS_URL. */
  get client(): Redis | null {
    return this.redis;
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
    return recordOf(await this.window.hit(key, ttl, limit));
  }

  /**
   * One call named `id` (unique), that `refund` can take back: the report's limit counts only
   * the calls it serves.
   */
  async take(key: string, ttl: number, limit: number, id: string): Promise<ThrottlerStorageRecord> {
    return recordOf(await this.window.hit(key, ttl, limit, id));
  }

  /**
   * Takes call `id` back (the service refused it after counting it, or could not learn whether
   * Redis counted it). Never rejects: while Redis is away the refund waits for its return (a hit
   * still in flight then finds the refund's tombstone and is not recorded).
   */
  async refund(key: string, id: string, windowMs: number): Promise<void> {
    try {
      await this.window.refund(key, id, windowMs);
    } catch {
      if (this.pendingRefunds.length < MAX_PENDING_REFUNDS) {
        this.pendingRefunds.push({ key, id, windowMs });
      }
    }
  }

  /**
   * `increment`, but counted in this instance's memory while Redis cannot be reached: a limit
   * that is a brake rather than the protection (the token route's: the sign-in budgets in the
   * database are) keeps braking per instance instead of refusing every call.
   */
  async incrementOrLocal(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    try {
      return await this.increment(key, ttl, limit);
    } catch {
      return recordOf(await this.local.hit(key, ttl, limit));
    }
  }
  onApplicationShutdown(): void {
    this.redis?.disconnect(false);
  }

  private markDown(error: Error): void {
    if (!this.reachable) return;
    this.reachable = false;
    this.logger.warn(
      `Redis of the rate limits is unreachable (${error.message}): the report and the digests answer 503 and the token route counts per instance until it returns.`,
    );
  }

  private markUp(): void {
    const refunds = this.pendingRefunds;
    this.pendingRefunds = [];
    for (const { key, id, windowMs } of refunds) void this.refund(key, id, windowMs);
    if (this.reachable) return;
    this.reachable = true;
    this.logger.log('Redis of the rate limits is reachable again.');
  }
}

function recordOf({ allowed, count, resetMs }: WindowHit): ThrottlerStorageRecord {
  const resetSeconds = Math.ceil(resetMs / 1000);
  return {
    totalHits: count,
    timeToExpire: resetSeconds,
    isBlocked: !allowed,
    timeToBlockExpire: allowed ? 0 : resetSeconds,
  };
}
