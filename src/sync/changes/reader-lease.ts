import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';

/** Where the lease is kept: Redis (redisLeaseStore), or a fake in the unit specs. */
export interface LeaseStore {
  /** Takes the lease for `ttlMs` if nobody holds it: true when taken. */
  claim(holder: string, ttlMs: number): Promise<boolean>;
  /** Extends it by `ttlMs` if `holder` still holds it: false when it does not. */
  renew(holder: string, ttlMs: number): Promise<boolean>;
  /** Gives it up if `holder` holds it. */
  release(holder: string): Promise<void>;
}

/** Compare-and-set: only the holder extends or deletes the lease. */
const RENEW_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface WithLeaseCommands {
  renewLease(key: string, holder: string, ttlMs: number): Promise<number>;
  releaseLease(key: string, holder: string): Promise<number>;
}

/** The lease as one Redis key: SET NX PX to take it, a compare-and-set script to renew or give it up. */
export function redisLeaseStore(redis: Redis, key: string): LeaseStore {
  // ioredis sends EVALSHA, and the script itself when Redis does not have it yet.
  redis.defineCommand('renewLease', { numberOfKeys: 1, lua: RENEW_SCRIPT });
  redis.defineCommand('releaseLease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  const commands = redis as Redis & WithLeaseCommands;
  return {
    claim: async (holder, ttlMs) => (await redis.set(key, holder, 'PX', ttlMs, 'NX')) === 'OK',
    renew: async (holder, ttlMs) => (await commands.renewLease(key, holder, ttlMs)) === 1,
    release: async (holder) => {
      await commands.releaseLease(key, holder);
    },
  };
}

export interface LeaseOptions {
  store: LeaseStore;
  /** This instance's name in the lease (random at each start). */
  holder: string;
  /** How long a claim or a renewal holds (BINLOG_LEASE_MS). */
  ttlMs: number;
  /** This instance became the reader: start reading. */
  gained(): Promise<void>;
  /** It is no longer (or may no longer be) the reader: stop reading. */
  lost(): Promise<void>;
  /** After each attempt, held or not: the reader publishes its state, the others read it. */
  ticked?(held: boolean): void;
}

/**
 * One reader per deployment (issue 57, item 5): every instance tries to take the lease every
 * third of its TTL; the one that holds it renews it as often, and reads the binary log. A holder
 * that cannot renew (Redis unreachable, or the lease taken over after a pause) stops reading
 * before the lease it last confirmed runs out, counted from when it asked: by then another may
 * hold it. A holder that dies lets the lease expire, and another takes it within the TTL and a
 * third; one that stops gives it up, and another takes it at once (`attempt`, on the relay's
 * message). Two readers at once (a pause longer than the TTL) cost reads, never a wrong answer:
 * marks are only raised (dirty-marks.ts) and every saved position is one whose marks are written.
 */
export class ReaderLease {
  private readonly logger = new Logger('ReaderLease');
  private timer: NodeJS.Timeout | null = null;
  private validUntil = 0;
  private busy: Promise<void> = Promise.resolve();
  private stopped = false;
  held = false;

  constructor(private readonly options: LeaseOptions) {}

  private get every(): number {
    return Math.floor(this.options.ttlMs / 3);
  }

  /** The first attempt, awaited (an instance alone reads from its start), then every third of the TTL. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.attempt();
    this.timer = setInterval(() => void this.attempt(), this.every);
    this.timer.unref();
  }

  /**
   * Stops trying; a holder stops reading, then gives the lease up (another may take it at once):
   * true when it did.
   */
  async stop(): Promise<boolean> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.busy;
    if (!this.held) return false;
    this.held = false;
    await this.options.lost();
    await this.options.store.release(this.options.holder).catch(() => undefined);
    return true;
  }

  /** One attempt now (claim, or renew), after the one in progress. */
  attempt(): Promise<void> {
    this.busy = this.busy.then(() => this.once());
    return this.busy;
  }

  private async once(): Promise<void> {
    if (this.stopped) return;
    const { store, holder, ttlMs } = this.options;
    const askedAt = performance.now();
    let confirmed: boolean | null;
    try {
      confirmed = this.held ? await store.renew(holder, ttlMs) : await store.claim(holder, ttlMs);
    } catch {
      confirmed = null;
    }
    if (this.stopped) return;
    if (confirmed) {
      this.validUntil = askedAt + ttlMs;
      if (!this.held) {
        this.held = true;
        this.logger.log(`This instance (${holder}) is the binary log's reader`);
        await this.options.gained();
      }
    } else if (
      this.held &&
      (confirmed === false || performance.now() + this.every >= this.validUntil)
    ) {
      // Taken over, or the next attempt would come after the lease it last confirmed ran out.
      this.held = false;
      this.logger.warn(
        `This instance (${holder}) is no longer the binary log's reader: ` +
          (confirmed === false ? 'its lease was taken over' : 'its lease could not be renewed'),
      );
      await this.options.lost();
    }
    this.options.ticked?.(this.held);
  }
}
