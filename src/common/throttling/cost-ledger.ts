import { Injectable } from '@nestjs/common';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { SharedLimitStorage } from './shared-limit.storage';

/** Where a user stands in a minute's budget of work. */
export interface Spent {
  /** Units spent in the current minute. */
  spent: number;
  /** Milliseconds until the minute ends and the spent units are forgotten. */
  resetMs: number;
}

const MINUTE_SECONDS = 60;

/**
 * Work spent per key and minute (a fixed window of 60 s from the key's first charge), in
 * rate-limiter-flexible's counters: in Redis when REDIS_URL is set (SharedLimitStorage's client,
 * its prefix and its bounded waits), so every instance counts the same work; in memory otherwise.
 * Work is charged once known (after the call), and a call is admitted while its user's minute
 * has units left: the overshoot of a minute is at most the calls a user has running.
 * Redis failures reject: the caller decides what an outage means (the expensive reads: 503).
 */
@Injectable()
export class CostLedger {
  private readonly counters: RateLimiterAbstract;

  constructor(storage: SharedLimitStorage) {
    const redis = storage.client;
    // `points` is never consumed against (get and penalty only): the budget is the caller's.
    const options = {
      keyPrefix: 'cost',
      points: Number.MAX_SAFE_INTEGER,
      duration: MINUTE_SECONDS,
    };
    this.counters = redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true })
      : new RateLimiterMemory(options);
  }

  /** What `key` spent in its current minute. */
  async spent(key: string): Promise<Spent> {
    const res = await this.counters.get(key);
    return res
      ? { spent: res.consumedPoints, resetMs: res.msBeforeNext }
      : { spent: 0, resetMs: 0 };
  }

  /** Adds `units` to `key`'s minute (from now when it has none running). */
  async charge(key: string, units: number): Promise<void> {
    if (units <= 0) return;
    await this.counters.penalty(key, units);
  }
}
