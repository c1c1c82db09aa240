import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { createPool, type Pool } from 'mysql2/promise';
import type { Source } from '../../catalogue/source';
import { boundedRedis } from '../../common/throttling/bounded-redis';
import { AppConfig } from '../../config/app-config';
import { randomBytes } from 'node:crypto';
import { BinlogFollower, type ChangePoint, type FollowerStatus } from './binlog-follower';
import { MemoryMarks, RedisMarks } from './dirty-marks';
import { ReaderLease, redisLeaseStore } from './reader-lease';
import { ReaderRelay } from './reader-relay';

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

/** The change source's state: the follower's, and with Redis which instance reads the log. */
export type ChangeStatus =
  { state: 'off' } | (FollowerStatus & { reader?: 'this instance' | 'another instance' | 'none' });

/**
 * The change source (issue 57): the one place the digests ask "what changed in these days since
 * this position?". Answered by the binary log when BINLOG_DATABASE_URL is set and the follower
 * is following (binlog-follower.ts): after its barrier, a date whose stamp no mark has passed
 * holds without a read. Every other date, and every date without the log, is answered by the
 * fingerprints, as before issue 57. Nothing here can make an answer wrong; a date the log cannot
 * vouch for costs its fingerprint.
 *
 * Without REDIS_URL each instance follows the log itself, its marks in memory. With it, one
 * instance of the deployment reads (the holder of a lease, reader-lease.ts), its marks and its
 * saved position in Redis; the others pass their barrier through it and wake their feeds on what
 * it relays (reader-relay.ts), and read the same marks.
 */
@Injectable()
export class ChangeSource implements Changes, OnModuleInit, OnApplicationShutdown {
  private follower: BinlogFollower | null = null;
  private pool: Pool | null = null;
  private redis: Redis | null = null;
  private lease: ReaderLease | null = null;
  private relay: ReaderRelay | null = null;

  private readonly arrivals: Array<(table: string) => void> = [];

  /** Dates a digest asked about, by what answered whether they changed, since start-up. */
  readonly answered = new Map<'log' | 'fingerprints', number>();

  constructor(private readonly config: AppConfig) {}

  /** This instance's follower, when BINLOG_DATABASE_URL is set and `watch` was called. */
  get log(): BinlogFollower | null {
    return this.follower;
  }

  /** Whether this instance reads the log: always without Redis, while it holds the lease with. */
  get reading(): boolean {
    return this.follower !== null && (this.lease?.held ?? true);
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
    if (config.REDIS_URL) this.share(config.REDIS_URL);
    this.follower = new BinlogFollower({
      pool: this.pool,
      connection,
      database,
      serverId: config.BINLOG_SERVER_ID,
      waitMs: config.BINLOG_WAIT_MS,
      recheckSeconds: config.BINLOG_RECHECK_SECONDS,
      sources,
      arrived: (table) => {
        this.relay?.arrived(table);
        this.tell(table);
      },
      seen: (token, watermark) => this.relay?.seen(token, watermark),
      marks: this.redis
        ? new RedisMarks(this.redis, ttl)
        : new MemoryMarks(config.DIGEST_CACHE_MAX_ENTRIES),
    });
  }

  /** With Redis: the lease that elects the reader, and the relay between it and the others. */
  private share(url: string): void {
    const { config } = this;
    const keyPrefix = `${config.REDIS_KEY_PREFIX}changes:`;
    const redis = boundedRedis(url, { keyPrefix, timeoutMs: 500, retriesPerRequest: 0 });
    redis.on('error', () => undefined);
    const instance = randomBytes(8).toString('hex');
    const relay = new ReaderRelay(redis, redis.duplicate(), config.REDIS_KEY_PREFIX, instance);
    const ttlMs = config.BINLOG_LEASE_MS;
    const lease = new ReaderLease({
      store: redisLeaseStore(redis, 'reader:lease'),
      holder: instance,
      ttlMs,
      gained: () => this.follower!.start(),
      lost: () => this.follower!.stop(),
      ticked: (held) => {
        if (held) relay.publishStatus(this.follower!.status(), ttlMs);
        else void relay.refresh();
      },
    });
    relay.onArrival((table) => this.tell(table));
    relay.onRelease(() => void lease.attempt());
    [this.redis, this.relay, this.lease] = [redis, relay, lease];
  }

  async onModuleInit(): Promise<void> {
    await this.redis?.connect().catch(() => undefined);
    await this.relay?.start();
    if (this.lease) await this.lease.start();
    else await this.follower?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.lease) {
      // The lease is given up once the position is saved: a successor resumes from it at once.
      if (await this.lease.stop()) await this.relay?.released();
    } else {
      await this.follower?.stop();
    }
    this.relay?.stop();
    await this.pool?.end().catch(() => undefined);
    this.redis?.disconnect();
  }

  /**
   * `listener` is told each table a committed transaction inserted into, once its rows are
   * visible (with the log followed, here or by the deployment's reader; never without): the
   * waiting feeds' wake (FeedWaiters).
   */
  onArrival(listener: (table: string) => void): void {
    this.arrivals.push(listener);
  }

  private tell(table: string): void {
    for (const listener of this.arrivals) listener(table);
  }

  /**
   * The change source's state for readiness and metrics: `off` without BINLOG_DATABASE_URL; with
   * Redis, the reader's state wherever it runs, and which instance that is.
   */
  status(): ChangeStatus {
    if (!this.follower) return { state: 'off' };
    if (!this.lease || !this.relay) return this.follower.status();
    if (this.lease.held) return { ...this.follower.status(), reader: 'this instance' };
    const { status, why } = this.relay.readerStatus();
    if (status) return { ...status, reader: 'another instance' };
    return { state: 'connecting', reason: why, secondsBehind: 0, reader: 'none' };
  }

  async changedDays(question: ChangeQuestion): Promise<ChangeAnswer> {
    const relayed = await this.barrier();
    const now = relayed?.point ?? null;
    let known = question.dates.map(() => false);
    if (relayed && this.follower) {
      const since = question.stored.map((stored) => stored?.since ?? null);
      known = await this.follower.unchanged(
        relayed.point,
        question.table,
        question.shop,
        question.dates,
        since,
        relayed.writes,
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

  /**
   * The barrier: this instance's own when it reads the log (`writes` undefined: its marks' own
   * count), else through the deployment's reader while it follows; null when neither can vouch.
   */
  private async barrier(): Promise<{ point: ChangePoint; writes?: number } | null> {
    const { follower, relay } = this;
    if (!follower) return null;
    if (this.reading) {
      const point = await follower.point();
      return point && { point };
    }
    const state = relay?.readerStatus().status?.state;
    if (!relay || (state !== 'following' && state !== 'catching-up')) return null;
    return relay.point((token) => follower.watermark(token), this.config.BINLOG_WAIT_MS);
  }
}
