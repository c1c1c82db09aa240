import { Logger } from '@nestjs/common';
import { outsideDeadlines } from '../../common/deadline/deadline';
import type { PrimaryReader } from '../../database/replicas/read-router';
import { arrivalPollQuery } from '../../wall/sql/arrival-poll.sql';
import type { WakeOutcome, Waiter } from '../feed/waiter';

/** Most polls between two reads of a waiter held by an insert in flight (250 ms each: 2 s). */
const MAX_RETRY_POLLS = 8;

/**
 * The one poll of one table for the waiting feeds of an instance: every `intervalMs`, while
 * anybody waits on the table, ONE statement reads the highest id of each shop that moved, and
 * only the waiters of those shops are looked at. The cost is the same for 1 waiter or 10,000,
 * and nothing is read for a table nobody waits on.
 *
 * The statement (arrival-poll.sql.ts) runs on the primary, READ UNCOMMITTED on MySQL/MariaDB so
 * an insert in flight counts as a move.
 */
export class ArrivalWatcher {
  private readonly logger = new Logger('ArrivalWatcher');
  private readonly waiters = new Map<string, Set<Waiter>>();
  /** Highest id seen per waited shop. */
  private readonly known = new Map<string, bigint>();
  /** Shops of new waiters whose highest id is not known yet. */
  private readonly unseeded = new Set<string>();
  /** Waiters armed since the last poll: looked at after the next one whatever moved. */
  private readonly armed = new Set<Waiter>();
  /** Waiters held by an insert in flight: woken again at their `retryAt` poll. */
  private readonly retrying = new Set<Waiter>();
  private pollCount = 0;
  private high: bigint | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  /** A nudge came during a poll: poll again as soon as it ends. */
  private again = false;
  private failing = false;
  /** Statements sent since the watcher was made (the metrics' count). */
  polls = 0;
  /** Waiters woken since the watcher was made (the metrics' count). */
  wakes = 0;

  constructor(
    private readonly table: string,
    /** Runs a unit of work on one connection of the primary (ReadRouter.withPrimary). */
    private readonly withPrimary: <T>(work: (db: PrimaryReader) => Promise<T>) => Promise<T>,
    private readonly intervalMs: number,
  ) {}

  add(waiter: Waiter): void {
    for (const shop of waiter.shops) {
      let set = this.waiters.get(shop);
      if (!set) {
        set = new Set();
        this.waiters.set(shop, set);
        this.unseeded.add(shop);
      }
      set.add(waiter);
    }
    if (!this.timer && !this.polling) this.schedule();
  }

  remove(waiter: Waiter): void {
    this.armed.delete(waiter);
    this.retrying.delete(waiter);
    for (const shop of waiter.shops) {
      const set = this.waiters.get(shop);
      set?.delete(waiter);
      if (set?.size === 0) {
        this.waiters.delete(shop);
        this.known.delete(shop);
        this.unseeded.delete(shop);
      }
    }
    if (this.waiters.size === 0) this.stop();
  }

  /**
   * The waiter waits (again). After a wake whose read found nothing (a row of its shops the feed
   * does not serve, or an insert rolled back), it wakes only for ids above what it had seen. After
   * a read held by an insert in flight, it reads again after 1, 1, 2, 4, then every 8 polls
   * (2 s at most) until that insert ends: its commit moves no highest id.
   */
  arm(waiter: Waiter, after: WakeOutcome): void {
    if (after === 'in-flight') {
      waiter.retryAt =
        this.pollCount + Math.min(MAX_RETRY_POLLS, 2 ** Math.max(0, waiter.retries - 1));
      waiter.retries++;
      this.retrying.add(waiter);
      return;
    }
    // Mutation testing, equivalent survivors: `>=` assigns the threshold its own value; and
    // `after === 'nothing'` as `true` changes nothing, since the one other outcome that gets here,
    // `first`, comes before any wake, with `seenAtWake` still 0.
    if (after === 'nothing' && waiter.seenAtWake > waiter.threshold) {
      waiter.threshold = waiter.seenAtWake;
    }
    waiter.retries = 0;
    this.armed.add(waiter);
  }

  /**
   * A row of the table was committed (the binary log says so, issue 57): poll now rather than at
   * the next interval, and make every waiter held by an insert in flight due at this poll (that
   * insert may be the one committed). Nothing is woken that the poll would not wake.
   */
  nudge(): void {
    if (this.waiters.size === 0) return;
    for (const waiter of this.retrying)
      waiter.retryAt = Math.min(waiter.retryAt, this.pollCount + 1);
    if (this.polling) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.poll();
  }

  /** Stops polling and forgets the table's state (nobody waits). */
  stop(): void {
    // Mutation testing: `if (true)` survives, equivalent: clearTimeout(null) does nothing.
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.high = null;
    this.known.clear();
    this.armed.clear();
    this.retrying.clear();
  }

  private schedule(): void {
    // The poll serves every waiter of the table: no request's deadline applies to it.
    this.timer = outsideDeadlines(() => setTimeout(() => void this.poll(), this.intervalMs));
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.timer = null;
    this.polling = true;
    const seeding = [...this.unseeded];
    this.unseeded.clear();
    const moved = new Set<string>();
    try {
      const rows = await this.read(seeding);
      this.failing = false;
      for (const row of rows as Array<{ shop_code: string | null; top: string | null }>) {
        const top = row.top === null ? 0n : BigInt(row.top);
        if (row.shop_code === null) {
          this.high = top;
          continue;
        }
        const shop = row.shop_code;
        // Mutation testing, equivalent survivors: without this `continue` (`false`), a shop nobody
        // waits on is only remembered (memory; no waiter to wake, and a later waiter's seeding
        // reads it again). Ids only grow, so a shop's top is never below what is known: marking
        // it moved at an equal top (`true`, `>=`) only makes its waiters candidates, and a
        // candidate wakes only above its threshold, which that top did not pass.
        if (!this.waiters.has(shop)) continue;
        const before = this.known.get(shop);
        if (before === undefined || top > before) {
          this.known.set(shop, top);
          moved.add(shop);
        }
      }
    } catch (error) {
      // The waiters wait on until their Wait ends; the next poll tries again.
      for (const shop of seeding) if (this.waiters.has(shop)) this.unseeded.add(shop);
      if (!this.failing) this.logger.warn({ err: error }, `Polling ${this.table} failed`);
      this.failing = true;
    }
    this.polling = false;
    this.pollCount++;
    this.wake(moved);
    if (this.waiters.size === 0) return;
    if (this.again) {
      this.again = false;
      void this.poll();
    } else {
      this.schedule();
    }
  }

  private read(seeding: string[]): Promise<Array<Record<string, unknown>>> {
    const { sql, params } = arrivalPollQuery(this.table, this.high, seeding);
    this.polls++;
    return this.withPrimary((db) => (db.uncommitted ?? db).query(sql, params));
  }

  /**
   * Wakes the waiters of the shops that moved and those armed since the last poll when their
   * shops have an id above their threshold, and the waiters held by an insert in flight whose
   * retry is due. A waiter between a wake and its next arm is not waiting: it is passed by.
   */
  private wake(moved: Set<string>): void {
    const candidates = new Set(this.armed);
    this.armed.clear();
    for (const shop of moved) {
      // Stryker disable next-line ArrayDeclaration: unreachable: poll() puts in `moved` only shops in `waiters`, and calls this right after, synchronously
      for (const waiter of this.waiters.get(shop) ?? []) candidates.add(waiter);
    }
    for (const waiter of this.retrying) {
      if (waiter.retryAt > this.pollCount) continue;
      this.retrying.delete(waiter);
      this.wakeOne(waiter);
    }
    for (const waiter of candidates) {
      const highest = this.highestOf(waiter.shops);
      // Mutation testing: `highest !== undefined` as `true` survives, equivalent: `undefined > n`
      // is false.
      if (highest !== undefined && highest > waiter.threshold) {
        this.retrying.delete(waiter);
        this.wakeOne(waiter);
      }
    }
  }

  private wakeOne(waiter: Waiter): void {
    if (!waiter.waiting) return;
    waiter.seenAtWake = this.highestOf(waiter.shops) ?? waiter.threshold;
    waiter.wake();
    this.wakes++;
  }

  private highestOf(shops: readonly string[]): bigint | undefined {
    let highest: bigint | undefined;
    for (const shop of shops) {
      const top = this.known.get(shop);
      // Mutation testing, equivalent survivors: `top >= highest` assigns an equal value, and
      // `top !== undefined` as `true` compares undefined, which is never greater.
      if (top !== undefined && (highest === undefined || top > highest)) highest = top;
    }
    return highest;
  }
}
