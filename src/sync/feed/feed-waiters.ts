import { BeforeApplicationShutdown, Inject, Injectable, Optional } from '@nestjs/common';
import { serviceUnavailable, tooManyRequests } from '../../common/errors/problem';
import { AppConfig } from '../../config/app-config';
import { type PrimaryReader, ReadRouter } from '../../database/replicas/read-router';
import { ArrivalWatcher } from '../changes/arrival-watcher';
import { ChangeSource } from '../changes/change-source';
import type { ShopScope } from '../../wall/shop-scope';
import { type FeedWait, type WakeOutcome, Waiter } from './waiter';

/** Seconds a refused waiter is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The requests of this instance held by a feed's `Wait`: one ArrivalWatcher per table (one poll
 * per interval, whoever waits, and one at once when the binary log shows an insert committed), the caps (FEED_MAX_WAITERS for the instance: 503;
 * FEED_MAX_WAITERS_PER_USER for one token subject: 429; both with Retry-After), the count the
 * metrics gauge, and shutdown: every waiter is answered at once, before the server closes.
 */
@Injectable()
export class FeedWaiters implements BeforeApplicationShutdown {
  /** One per table somebody has waited on, with the feed it serves (the metrics' label). */
  private readonly watchers = new Map<string, { feed: string; watcher: ArrivalWatcher }>();
  private readonly perUser = new Map<string, number>();
  private readonly all = new Set<Waiter>();
  private closed = false;

  constructor(
    private readonly config: AppConfig,
    private readonly reads: ReadRouter,
    @Optional() @Inject(ChangeSource) changes: ChangeSource | null = null,
  ) {
    // With the binary log followed, a committed insert polls its table at once (issue 57).
    changes?.onArrival((table) => this.watchers.get(table)?.watcher.nudge());
  }

  /** Waiters held now, by feed (`sales`, ...), every feed waited on since start-up included. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { feed } of this.watchers.values()) counts.set(feed, 0);
    for (const waiter of this.all) counts.set(waiter.feed, (counts.get(waiter.feed) ?? 0) + 1);
    return counts;
  }

  /** Statements the watchers have sent, and waiters they woke, by feed (the metrics). */
  activity(): Map<string, { polls: number; wakes: number }> {
    return new Map(
      [...this.watchers.values()].map(({ feed, watcher: w }) => [
        feed,
        { polls: w.polls, wakes: w.wakes },
      ]),
    );
  }

  /**
   * Holds a request of `userId` reading `shops` of `table` (for `feed`, the metrics' name) after
   * `position`; refused past a cap.
   * Shops outside the claims are already gone: an empty list waits the whole Wait, as a quiet
   * shop does, and costs no poll.
   */
  enter(
    table: string,
    feed: string,
    userId: string,
    shops: readonly string[],
    position: string,
  ): Waiter {
    if (this.all.size >= this.config.FEED_MAX_WAITERS) {
      throw serviceUnavailable(
        `This instance holds its maximum of ${this.config.FEED_MAX_WAITERS} waiting feed requests; ` +
          'retry, or read without Wait.',
        RETRY_AFTER_SECONDS,
      );
    }
    const mine = this.perUser.get(userId) ?? 0;
    if (mine >= this.config.FEED_MAX_WAITERS_PER_USER) {
      throw tooManyRequests(
        `At most ${this.config.FEED_MAX_WAITERS_PER_USER} feed requests of one user may wait at ` +
          'once on an instance; retry when one has been answered, or read without Wait.',
        RETRY_AFTER_SECONDS,
      );
    }
    const waiter = new Waiter(table, feed, userId, shops, position);
    this.perUser.set(userId, mine + 1);
    this.all.add(waiter);
    if (shops.length > 0) this.watcher(waiter).add(waiter);
    return waiter;
  }

  /**
   * The wait of one held feed request (enter, then next after each read, end once answered):
   * `shops` is the wall's scope of the caller, so only their arrivals wake it.
   */
  waitFor(
    table: string,
    feed: string,
    userId: string,
    shops: ShopScope,
    position: string,
  ): FeedWait {
    const waiter = this.enter(table, feed, userId, shops, position);
    return {
      next: (ms, after) => this.next(waiter, ms, after),
      end: () => this.leave(waiter),
    };
  }

  /**
   * Waits up to `ms` for an arrival: true when one of the shops moved (read again), false when
   * the time ran out or the instance is shutting down (answer what was read). `after`: what the
   * read after the last wake found.
   */
  next(waiter: Waiter, ms: number, after: WakeOutcome): Promise<boolean> {
    if (this.closed || ms <= 0) return Promise.resolve(false);
    if (waiter.shops.length > 0) this.watcher(waiter).arm(waiter, after);
    return waiter.next(ms);
  }

  leave(waiter: Waiter): void {
    if (!this.all.delete(waiter)) return;
    waiter.release();
    if (waiter.shops.length > 0) this.watcher(waiter).remove(waiter);
    const left = (this.perUser.get(waiter.userId) ?? 1) - 1;
    if (left > 0) this.perUser.set(waiter.userId, left);
    else this.perUser.delete(waiter.userId);
  }

  /** SIGTERM: every waiter answers now with its page, so the drain does not wait for them. */
  beforeApplicationShutdown(): void {
    this.closed = true;
    for (const waiter of this.all) waiter.release();
    for (const { watcher } of this.watchers.values()) watcher.stop();
  }

  private watcher(waiter: Waiter): ArrivalWatcher {
    let entry = this.watchers.get(waiter.table);
    if (!entry) {
      const read = <T>(work: (db: PrimaryReader) => Promise<T>) => this.reads.withPrimary(work);
      const watcher = new ArrivalWatcher(waiter.table, read, this.config.FEED_POLL_INTERVAL_MS);
      entry = { feed: waiter.feed, watcher };
      this.watchers.set(waiter.table, entry);
    }
    return entry.watcher;
  }
}
