import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { SlidingWindow, WindowHit } from './sliding-window';

/**
 * The sliding window log of sliding-window.ts as one atomic Lua script over a sorted set per key
 * (member: a unique id per call, score: its time in ms). The time is Redis's own (TIME), so
 * instances whose clocks disagree still count the same window.
 * KEYS[1] the key; ARGV: window ms, limit, call id. Returns {allowed 0|1, count, reset ms}.
 */
const HIT_SCRIPT = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
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

interface WithHitCommand {
  slidingWindowHit(key: string, windowMs: number, limit: number, id: string): Promise<number[]>;
}

/** The sliding window shared by every instance through Redis (REDIS_URL set). */
export class RedisSlidingWindow implements SlidingWindow {
  private readonly redis: Redis & WithHitCommand;

  constructor(redis: Redis) {
    // ioredis sends EVALSHA, and the script itself when Redis does not have it yet.
    redis.defineCommand('slidingWindowHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as Redis & WithHitCommand;
  }

  async hit(key: string, windowMs: number, limit: number): Promise<WindowHit> {
    const [allowed, count, resetMs] = await this.redis.slidingWindowHit(
      key,
      windowMs,
      limit,
      randomUUID(),
    );
    return { allowed: allowed === 1, count, resetMs };
  }
}
