import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { SlidingWindow, WindowHit } from './sliding-window';

/**
 * The sliding window log of sliding-window.ts as one atomic Lua script over a sorted set per key
 * (member: a unique id per call, score: its time in ms). The time is Redis's own (TIME), so
 * instances whose clocks disagree still count the same window. A call refunded before its hit
 * ran (the hit was still in flight, e.g. while Redis was frozen) left a tombstone: it is not
 * recorded.
 * KEYS[1] the key, KEYS[2] the call's tombstone; ARGV: window ms, limit, call id.
 * Returns {allowed 0|1, count, reset ms}.
 */
const HIT_SCRIPT = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if redis.call('EXISTS', KEYS[2]) == 1 then
  limit = 0
end
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  count = count + 1
  allowed = 1
end
local reset = 0
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then
  reset = tonumber(oldest[2]) + window - now
  -- The newest call is at most now: the key is useless one window from now.
  redis.call('PEXPIRE', KEYS[1], window)
end
return {allowed, count, reset}
`;

/**
 * A refund: the call leaves the set, and its tombstone (for one window) stops a hit of it still
 * in flight from recording it. KEYS[1] the key, KEYS[2] the tombstone; ARGV: window ms, call id.
 */
const REFUND_SCRIPT = `
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], '1', 'PX', tonumber(ARGV[1]))
return 1
`;

interface WithHitCommand {
  slidingWindowHit(
    key: string,
    tombstone: string,
    windowMs: number,
    limit: number,
    id: string,
  ): Promise<number[]>;
  slidingWindowRefund(
    key: string,
    tombstone: string,
    windowMs: number,
    id: string,
  ): Promise<number>;
}

/** The tombstone key of a refunded call. */
const tombstoneOf = (key: string, id: string): string => `${key}:refunded:${id}`;

/** The sliding window shared by every instance through Redis (REDIS_URL set). */
export class RedisSlidingWindow implements SlidingWindow {
  private readonly redis: Redis & WithHitCommand;

  constructor(redis: Redis) {
    // ioredis sends EVALSHA, and the script itself when Redis does not have it yet.
    redis.defineCommand('slidingWindowHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    redis.defineCommand('slidingWindowRefund', { numberOfKeys: 2, lua: REFUND_SCRIPT });
    this.redis = redis as Redis & WithHitCommand;
  }

  async hit(key: string, windowMs: number, limit: number, id = randomUUID()): Promise<WindowHit> {
    const [allowed, count, resetMs] = await this.redis.slidingWindowHit(
      key,
      tombstoneOf(key, id),
      windowMs,
      limit,
      id,
    );
    return { allowed: allowed === 1, count, resetMs };
  }

  async refund(key: string, id: string, windowMs: number): Promise<void> {
    await this.redis.slidingWindowRefund(key, tombstoneOf(key, id), windowMs, id);
  }
}
