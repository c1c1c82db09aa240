import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CallerClaims } from '../common/caller-claims';
import { Deadline, runWithDeadline } from '../common/deadline/deadline';
import { AppConfig } from '../config/app-config';
import { MAX_READ_AHEAD_PAGES_PER_USER } from '../config/limits';
import { poolStats } from '../database/pool-stats';
import type { ModeQuery } from './modes/mode';
import { shopsInScope } from './shop-scope';

/** What ReadAhead counted since start-up (the metrics read it at each scrape). */
export interface ReadAheadCounts {
  /** Requests answered with a page read ahead for them (the check found it unchanged). */
  hits: number;
  /**
   * Requests that took a page read ahead which the check found changed in the database since
   * (decision 29.13): they read their page afresh.
   */
  stale: number;
  /** Requests of a walk (with a Cursor) that found no page read ahead and read their own. */
  misses: number;
  /** Pages read ahead that nobody asked for in time. */
  wasted: number;
  /** Reads ahead that failed (dropped; the request reads its page itself). */
  failed: number;
  /** Reads ahead not started: the pool busy, the bounds reached, or one already held. */
  skipped: number;
}

interface Held {
  owner: string;
  page: Promise<unknown>;
  timer: NodeJS.Timeout;
}

/** The bounds ReadAhead works within (AppConfig's, or a spec's). */
export interface ReadAheadLimits {
  /** How long a page is held, and how long its read may take; 0: never read ahead. */
  ttlMs: number;
  /** Pages held at once (all callers). */
  maxPages: number;
  /** Pages held at once for one user. */
  maxPerUser: number;
}

/**
 * The next page of a walk in progress, read before it is asked (decision 29.12). When a list
 * request that carried a Cursor reads a full page, the paginator hands the query of the page after
 * it (the one the answer's `nextCursor` and `Link` lead to) to `start`; the read runs while this
 * page is mapped, serialised, compressed and sent. When that request comes, `take` gives the page
 * to it, once. The paginator consults it after the guards and the request's parsing, in place of
 * the read only.
 *
 * A page is held under its caller and scope (the token's subject and the shops the wall resolves
 * from its claims), the endpoint's route and the parsed query (filters, position, Limit): another
 * user, the same user with other shops in the token, another endpoint or another Limit never
 * gets it. It is held for `ttlMs` from its start and dropped unread after that. At most
 * `maxPages` pages are held at once, `maxPerUser` for one user, and none is started while the
 * primary's pool has a request waiting or more than half its connections in use: a read ahead
 * never takes a connection a request needs. A read ahead that fails is dropped silently; the
 * request reads its page itself.
 *
 * A page taken is served only if `stillHeld` (the mode's check statement, run at the request)
 * finds the database still holding exactly it; otherwise the request reads afresh and it counts
 * as `stale` (decision 29.13). Off unless LIST_READ_AHEAD_MS is set, and never on SQLite.
 */
@Injectable()
export class ReadAhead {
  private readonly held = new Map<string, Held>();
  private readonly perUser = new Map<string, number>();
  private readonly counted: ReadAheadCounts = {
    hits: 0,
    stale: 0,
    misses: 0,
    wasted: 0,
    failed: 0,
    skipped: 0,
  };
  private readonly limits: ReadAheadLimits;

  constructor(
    config: AppConfig,
    @InjectDataSource() private readonly primary: DataSource | null = null,
  ) {
    this.limits = {
      // Never on the embedded SQLite database: better-sqlite3 is synchronous, a read ahead
      // overlaps nothing there, and the check statement uses MySQL's functions (decision 29.13).
      ttlMs: primary?.options.type === 'better-sqlite3' ? 0 : config.LIST_READ_AHEAD_MS,
      maxPages: config.LIST_READ_AHEAD_MAX_PAGES,
      maxPerUser: MAX_READ_AHEAD_PAGES_PER_USER,
    };
  }

  get enabled(): boolean {
    return this.limits.ttlMs > 0;
  }

  counts(): ReadAheadCounts {
    return { ...this.counted };
  }

  /** Pages held now (read or being read). */
  get size(): number {
    return this.held.size;
  }

  /** Resolves once every page held now has been read or has failed (its read never rejects). */
  async settled(): Promise<void> {
    await Promise.all([...this.held.values()].map((entry) => entry.page));
  }

  /**
   * The page read ahead for exactly this request (caller, scope, route, query), taken: a second
   * request of the same page reads its own. It resolves to the page only if `stillHeld` says the
   * database still holds exactly it (decision 29.13); to null when that read failed, the check
   * failed or found it changed (`stale`). Undefined when there is none.
   */
  take<S>(
    caller: CallerClaims,
    route: string,
    query: ModeQuery,
    stillHeld: (held: S) => Promise<boolean>,
  ): Promise<S | null> | undefined {
    if (!this.enabled) return undefined;
    const key = keyOf(caller, route, query);
    const held = this.held.get(key);
    if (!held) {
      this.counted.misses++;
      return undefined;
    }
    this.drop(key, held);
    return (held.page as Promise<S | null>).then(async (page) => {
      if (page === null) return null;
      const same = await stillHeld(page).catch(() => false);
      if (same) this.counted.hits++;
      else this.counted.stale++;
      return same ? page : null;
    });
  }

  /**
   * Reads the page of `query` ahead for `caller` with `read` (the caller's scoped reader), and
   * holds it for `take`, unless the bounds or the pool say no. Never throws, never rejects.
   */
  start(caller: CallerClaims, route: string, query: ModeQuery, read: () => Promise<unknown>): void {
    if (!this.enabled) return;
    const key = keyOf(caller, route, query);
    const owner = caller.userId;
    if (
      this.held.has(key) ||
      this.held.size >= this.limits.maxPages ||
      (this.perUser.get(owner) ?? 0) >= this.limits.maxPerUser ||
      !this.poolHasRoom()
    ) {
      this.counted.skipped++;
      return;
    }
    // Its own clock, not the request's: the request that started it is answered meanwhile.
    const deadline = new Deadline(this.limits.ttlMs);
    const page = runWithDeadline(deadline, async () => read()).then(
      (slice) => slice,
      () => {
        this.counted.failed++;
        if (this.held.get(key) === entry) this.drop(key, entry);
        return null;
      },
    );
    void page.finally(() => deadline.finish());
    const timer = setTimeout(() => {
      if (this.held.get(key) !== entry) return;
      this.drop(key, entry);
      this.counted.wasted++;
    }, this.limits.ttlMs);
    timer.unref();
    const entry: Held = { owner, page, timer };
    this.held.set(key, entry);
    this.perUser.set(owner, (this.perUser.get(owner) ?? 0) + 1);
  }

  private drop(key: string, entry: Held): void {
    clearTimeout(entry.timer);
    this.held.delete(key);
    const left = (this.perUser.get(entry.owner) ?? 1) - 1;
    if (left > 0) this.perUser.set(entry.owner, left);
    else this.perUser.delete(entry.owner);
  }

  /** Nobody waits for a connection of the primary, and at most half of them are in use. */
  private poolHasRoom(): boolean {
    if (!this.primary) return true;
    const stats = poolStats(this.primary);
    return stats !== undefined && stats.waiting === 0 && stats.inUse * 2 < stats.size;
  }
}

/**
 * Whose page, of what: the token's subject, the shops the wall reads for this query (the claims
 * narrowed to its ShopCode), the endpoint and the parsed query. JSON of arrays and of the query
 * as the mode builds it (its keys always in one order), so two parts cannot run into each other.
 */
function keyOf(caller: CallerClaims, route: string, query: ModeQuery): string {
  const scope = shopsInScope(caller, query.shopCode ?? undefined);
  return JSON.stringify([caller.userId, scope, route, query]);
}
