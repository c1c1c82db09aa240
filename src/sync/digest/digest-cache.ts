import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { buildFingerprint } from '../../common/build-fingerprint';
import { boundedRedis } from '../../common/throttling/bounded-redis';

/** Bounds on every Redis wait: a Redis that is down or hung costs a digest its cache, never time. */
const REDIS_TIMEOUT_MS = 500;

/** What a digest did with each date: `outcomes` counts them (the specs read it; no metric yet). */
export type DayOutcome = 'cached' | 'computed' | 'empty';

/**
 * The digests' checksums of past answers (issue 45), per shop, resource and date, each stored
 * with the fingerprint of the rows it was computed from (wall/sql/day-fingerprint.ts): a
 * date whose fingerprint has not moved answers from here, any other is read and hashed again.
 * A stored entry is only ever used for the fingerprint it was stored with, so nothing here can
 * make an answer wrong; losing it costs time only.
 *
 * In Redis when REDIS_URL is set (shared by the instances, each entry with a TTL of
 * DIGEST_CACHE_TTL_SECONDS), otherwise in this instance's memory (at most
 * DIGEST_CACHE_MAX_ENTRIES dates, the oldest written first out). While Redis cannot be reached
 * every date is computed (slower, still right); Redis's outages are logged by the rate limits'
 * store. DIGEST_CACHE_TTL_SECONDS=0 turns the cache off. The day close keeps its days here too,
 * under keys of their own (business-days/day-close-cache.ts).
 */
@Injectable()
export class DigestCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('DigestCache');
  private readonly redis: Redis | null = null;
  private readonly memory = new Map<string, string>();
  private readonly ttlSeconds: number;
  private readonly maxEntries: number;
  /**
   * The build: BUILD_REVISION when set, and always the package version, a hash of the code and
   * the time-zone data's version (build-fingerprint.ts), so an upgrade that changes a record or a
   * date never meets the checksums of the older code: the first part of every key.
   */
  readonly release: string;
  /** Dates answered, by outcome, since start-up. */
  readonly outcomes = new Map<DayOutcome, number>();

  constructor(config: AppConfig) {
    this.ttlSeconds = config.DIGEST_CACHE_TTL_SECONDS;
    this.maxEntries = config.DIGEST_CACHE_MAX_ENTRIES;
    this.release = [config.BUILD_REVISION, buildFingerprint()].filter(Boolean).join('-');
    if (config.REDIS_URL && this.ttlSeconds > 0) {
      this.redis = boundedRedis(config.REDIS_URL, {
        keyPrefix: `${config.REDIS_KEY_PREFIX}digest:`,
        timeoutMs: REDIS_TIMEOUT_MS,
        retriesPerRequest: 0,
      });
      // Required: an outage must not be an unhandled 'error' event. Logged by SharedLimitStorage.
      this.redis.on('error', () => undefined);
    }
  }

  async onModuleInit(): Promise<void> {
    await this.redis?.connect().catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis?.disconnect();
    return Promise.resolve();
  }

  get enabled(): boolean {
    return this.ttlSeconds > 0;
  }

  count(outcome: DayOutcome, days = 1): void {
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + days);
  }

  /** The stored values of `keys`, in order; null where none (or the cache cannot be read). */
  async get(keys: readonly string[]): Promise<Array<string | null>> {
    if (!this.enabled || keys.length === 0) return keys.map(() => null);
    if (!this.redis) return keys.map((key) => this.memory.get(key) ?? null);
    try {
      return await this.redis.mget(...keys);
    } catch (error) {
      this.logger.debug(`Digest cache not read: ${String(error)}`);
      return keys.map(() => null);
    }
  }

  /** Stores `entries`; never waits on Redis, never fails the answer. */
  set(entries: ReadonlyArray<readonly [string, string]>): void {
    if (!this.enabled || entries.length === 0) return;
    if (!this.redis) {
      for (const [key, value] of entries) {
        this.memory.delete(key);
        this.memory.set(key, value);
      }
      for (const key of this.memory.keys()) {
        if (this.memory.size <= this.maxEntries) break;
        this.memory.delete(key);
      }
      return;
    }
    const batch = this.redis.pipeline();
    for (const [key, value] of entries) batch.set(key, value, 'EX', this.ttlSeconds);
    batch.exec().catch((error: unknown) => {
      this.logger.debug(`Digest cache not written: ${String(error)}`);
    });
  }
}
