import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { createPool, type Pool } from 'mysql2/promise';
import type { Source } from '../../catalogue/source';
import { boundedRedis } from '../../common/throttling/bounded-redis';
import { AppConfig } from '../../config/app-config';
import { BinlogFollower, type ChangePoint, type FollowerStatus } from './binlog-follower';
import { MemoryMarks, RedisMarks } from './dirty-marks';

export type { ChangePoint } from './binlog-follower';

/** Each date's fingerprint with rows (null: none computed whole), as the wall's day reads give them. */
type DayFingerprints = ReadonlyMap<string, string | null>;

/** A cached value as the question sees it: the fingerprint and the stamp it was stored with. */
export interface StoredDay {
  fingerprint: string;
  since: ChangePoint | null;
}

/** "What changed in these days since this position?" for one shop's entries of one table. */
export interface ChangeQuestion {
  table: string;
  shop: string;
  dates: readonly string[];
  /** Per date, what is stored for it (null: nothing). */
  stored: ReadonlyArray<StoredDay | null>;
  /** The dates' fingerprints from the database, over the dates from `first` to `last`. */
  fingerprints(first: number, last: number): Promise<DayFingerprints>;
}

/**
 * Per date: its stored value holds by the log (`unchanged`) or by its fingerprint
 * (`rechecked`), it has no rows (`empty`), or it must be read (`changed`).
 */
export type DayVerdict = 'unchanged' | 'rechecked' | 'empty' | 'changed';

export interface ChangeAnswer {
  /** The stamp of a value read after the answer (null: the log cannot vouch for it). */
  now: ChangePoint | null;
  days: DayVerdict[];
}

/** Answers the change question (ChangeSource); without one, readDigest asks the fingerprints. */
export interface Changes {
  changedDays(question: ChangeQuestion): Promise<ChangeAnswer>;
}

/** A stamp as an entry stores it: `<epoch>@<position>@<seconds>`. */
export const stampText = (point: ChangePoint): string =>
  `${point.epoch}@${point.position}@${point.at}`;

export function parseStamp(text: string | undefined): ChangePoint | null {
  const match = /^([0-9a-f]+)@(\d+)@(\d+)$/.exec(text ?? '');
  return match ? { epoch: match[1], position: Number(match[2]), at: Number(match[3]) } : null;
}

/**
 * The fingerprints' answer: a date whose stored fingerprint equals the database's holds, a date
 * without rows is empty, any other must be read. Reads the fingerprints only when something is
 * stored for the dates it is asked about.
 */
export async function byFingerprints(
  question: ChangeQuestion,
  ask: readonly boolean[] = question.dates.map(() => true),
): Promise<Array<DayVerdict | null>> {
  const asked = question.dates.flatMap((_, i) => (ask[i] ? [i] : []));
  if (asked.length === 0 || !asked.some((i) => question.stored[i] !== null)) {
    return question.dates.map((_, i) => (ask[i] ? 'changed' : null));
  }
  const prints = await question.fingerprints(asked[0], asked[asked.length - 1]);
  return question.dates.map((date, i) => {
    if (!ask[i]) return null;
    const print = prints.get(date);
    if (print === undefined) return 'empty';
    return print !== null && question.stored[i]?.fingerprint === print ? 'rechecked' : 'changed';
  });
}

/**
 * The change source (issue 57): the one place the digests ask "what changed in these days since
 * this position?". Answered by the binary log when BINLOG_DATABASE_URL is set and the follower
 * is following (binlog-follower.ts): after its barrier, a date whose stamp no mark has passed
 * holds without a read. Every other date, and every date without the log, is answered by the
 * fingerprints, as before issue 57. Nothing here can make an answer wrong; a date the log cannot
 * vouch for costs its fingerprint.
 *
 * Marks are kept in Redis (REDIS_URL) or in this instance's memory; each instance follows the
 * log itself with its own server_id.
 */
@Injectable()
export class ChangeSource implements Changes, OnModuleInit, OnApplicationShutdown {
  private follower: BinlogFollower | null = null;
  private pool: Pool | null = null;
  private redis: Redis | null = null;

  private readonly arrivals: Array<(table: string) => void> = [];

  /** Dates a digest asked about, by what answered whether they changed, since start-up. */
  readonly answered = new Map<'log' | 'fingerprints', number>();

  constructor(private readonly config: AppConfig) {}

  /** The follower, when BINLOG_DATABASE_URL is set and `watch` was called. */
  get log(): BinlogFollower | null {
    return this.follower;
  }

  /**
   * Follows the log for `sources` (the digests' sources, given by ResourcesModule from the
   * catalogue) when BINLOG_DATABASE_URL is set; before onModuleInit, once.
   */
  watch(sources: readonly Source<unknown>[]): void {
    const { config } = this;
    const url = config.BINLOG_DATABASE_URL;
    if (!url || this.follower) return;
    const database = decodeURIComponent(new URL(url).pathname.slice(1));
    const connection = { uri: url.replace(/^mariadb:/, 'mysql:'), connectTimeout: 5000 };
    this.pool = createPool({ ...connection, connectionLimit: 4, dateStrings: true });
    // Required: an outage must not be an unhandled 'error' event; the follower reports it.
    this.pool.on('connection', (c) => c.on('error', () => undefined));
    const ttl = Math.max(config.DIGEST_CACHE_TTL_SECONDS, 1) + 3600;
    if (config.REDIS_URL) {
      this.redis = boundedRedis(config.REDIS_URL, {
        keyPrefix: `${config.REDIS_KEY_PREFIX}changes:`,
        timeoutMs: 500,
        retriesPerRequest: 0,
      });
      this.redis.on('error', () => undefined);
    }
    this.follower = new BinlogFollower({
      pool: this.pool,
      connection,
      database,
      serverId: config.BINLOG_SERVER_ID,
      waitMs: config.BINLOG_WAIT_MS,
      recheckSeconds: config.BINLOG_RECHECK_SECONDS,
      sources,
      arrived: (table) => {
        for (const listener of this.arrivals) listener(table);
      },
      marks: this.redis
        ? new RedisMarks(this.redis, ttl)
        : new MemoryMarks(config.DIGEST_CACHE_MAX_ENTRIES),
    });
  }

  async onModuleInit(): Promise<void> {
    await this.redis?.connect().catch(() => undefined);
    await this.follower?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower?.stop();
    await this.pool?.end().catch(() => undefined);
    this.redis?.disconnect();
  }

  /**
   * `listener` is told each table a committed transaction inserted into, once its rows are
   * visible (with the log followed; never without): the waiting feeds' wake (FeedWaiters).
   */
  onArrival(listener: (table: string) => void): void {
    this.arrivals.push(listener);
  }

  /** The change source's state for readiness and metrics: `off` without BINLOG_DATABASE_URL. */
  status(): FollowerStatus | { state: 'off' } {
    return this.follower?.status() ?? { state: 'off' };
  }

  async changedDays(question: ChangeQuestion): Promise<ChangeAnswer> {
    const now = (await this.follower?.point()) ?? null;
    let known = question.dates.map(() => false);
    if (now && this.follower) {
      const since = question.stored.map((stored) => stored?.since ?? null);
      known = await this.follower.unchanged(
        now,
        question.table,
        question.shop,
        question.dates,
        since,
      );
    }
    const byLog = known.filter(Boolean).length;
    this.answered.set('log', (this.answered.get('log') ?? 0) + byLog);
    this.answered.set(
      'fingerprints',
      (this.answered.get('fingerprints') ?? 0) + question.dates.length - byLog,
    );
    const rest = await byFingerprints(
      question,
      known.map((holds) => !holds),
    );
    return { now, days: rest.map((verdict) => verdict ?? 'unchanged') };
  }
}
