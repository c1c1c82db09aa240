import { Inject, Injectable, Optional } from '@nestjs/common';
import { annotate } from '../common/tracing/spans';
import type { CallerClaims, ScopedToShops } from '../common/caller-claims';
import type { BusinessDates } from '../common/pagination/filter-parameters';
import { ReadRouter } from '../database/replicas/read-router';
import { FEED } from './modes/feed.mode';
import { LIST, type PageQuery } from './modes/list.mode';
import type { Mode, ModeQuery, ReadSource } from './modes/mode';
import { FeedWaiters } from './arrivals/feed-waiters';
import type { FeedWait } from './arrivals/waiter';
import { shopsInScope } from './shop-scope';
import type { FeedQuery } from './sql/arrival-reader';
import { type DayFingerprints, readFingerprints } from './sql/day-fingerprint';
import { type DayBounds, readBusinessDay, readDay } from './sql/day-reader';
import { coverOf, readBusinessDateRanges } from './sql/business-date-range';
import { shopsAmong, type ShopRow } from './sql/shops.sql';
import type { Source } from './source';

export type { ShopRow } from './sql/shops.sql';

/** One digest's reads of one shop (ShopScopedReader.dayReads). */
export interface DayReads<R> {
  fingerprints(period: DayBounds): Promise<DayFingerprints>;
  /** A date's rows, and the fingerprint of exactly these rows (sql/day-reader.ts). */
  day(day: DayBounds): Promise<{ rows: R[]; fingerprint: string }>;
  /** The rows whose business date is `date` (`YYYY-MM-DD`), in id order (sql/day-reader.ts). */
  businessDay(date: string): Promise<R[]>;
}

/**
 * The only road to the business data: every read of a resource's source (sales with their lines,
 * payments, cash movements, the report's chunks) and of the shops goes through a reader bound to
 * one caller's verified claims. No method takes a list of shops or ids: each narrows the query's
 * ShopCode to the claims itself, so a shop outside them reads nothing and runs no query, exactly
 * as an unknown one. Each read is one unit of work with one ReadRouter reader (a page and its
 * lines come from one replica, or the primary).
 *
 * Generic over the source (`<resource>.source.ts`) and the mode (modes/): `page` (list), `feed`
 * and any later mode through `read`. The mode chooses the SQL (sql/) and where it runs (the feeds
 * read the primary only: a replica behind it would hide committed rows the feed must not step
 * over).
 */
export class ShopScopedReader implements ScopedToShops {
  constructor(
    readonly caller: CallerClaims,
    private readonly reads: ReadSource,
    private readonly waiters: FeedWaiters | null = null,
  ) {}

  /** Whether the caller's claims reach this shop (exact code): a digest of any other is empty. */
  covers(shopCode: string): boolean {
    return shopsInScope(this.caller, shopCode).length > 0;
  }

  /** One slice of `source` in `mode`, for the caller's shops narrowed to the query's ShopCode. */
  read<Q extends ModeQuery, X extends object, R extends { id: string }>(
    mode: Mode<Q, X, object>,
    source: Source<R>,
    query: Q,
  ): Promise<{ rows: R[] } & X> {
    const scope = shopsInScope(this.caller, query.shopCode ?? undefined);
    return mode.read(source, scope, query, this.reads);
  }

  /** A list page of `source`, in (time, id) order, with what the source attaches. */
  page<R extends { id: string }>(source: Source<R>, query: PageQuery) {
    return this.read(LIST, source, query);
  }

  /**
   * The reads of one digest of `source` for one shop (narrowed to the claims: another reads
   * nothing and runs no query), all on one reader (one replica or the primary, one state of the
   * data: sql/day-reader.ts): the fingerprints of a period's dates, and every record of a date in
   * id order with what the source attaches.
   */
  dayReads<R extends { id: string }>(source: Source<R>, shopCode: string): DayReads<R> {
    const shops = shopsInScope(this.caller, shopCode);
    const db = this.reads.reader();
    return {
      fingerprints: (period) => readFingerprints(source, shops, period, db),
      day: (day) => readDay(source, shops, day, db),
      businessDay: (date) => readBusinessDay(source, shops, date, db),
    };
  }

  /**
   * The time ranges of `source` holding the records of one shop (narrowed to the claims) whose
   * business date is in `dates`, from the data (sql/business-date-range.ts): by date (`days`; a
   * date without records is absent), and the range covering them (null when none).
   */
  async businessDateRanges(source: Source<unknown>, shopCode: string, dates: BusinessDates) {
    const shops = shopsInScope(this.caller, shopCode);
    const days = await readBusinessDateRanges(source, shops, dates, this.reads.reader());
    return { days, cover: coverOf(days.values()) };
  }

  /** A feed page of `source`, in arrival (id) order, from the primary. */
  feed<R extends { id: string }>(source: Source<R>, query: FeedQuery) {
    return this.read(FEED, source, query);
  }

  /**
   * Holds a feed request that read nothing until a row of its shops may be readable after
   * `position` (FeedWaiters: one poll per table, the caps; 429 or 503 past them); `feed` names
   * it in the metrics (`sales`). Without
   * FeedWaiters (a bare reader) it answers at once.
   */
  awaitArrivals(
    source: Source<unknown>,
    query: ModeQuery,
    position: string,
    feed: string,
  ): FeedWait {
    const waiters = this.waiters;
    if (!waiters) return { next: () => Promise.resolve(false), end: () => undefined };
    const scope = shopsInScope(this.caller, query.shopCode ?? undefined);
    const waiter = waiters.enter(source.table, feed, this.caller.userId, scope, position);
    return {
      next: (ms, after) => waiters.next(waiter, ms, after),
      end: () => waiters.leave(waiter),
    };
  }

  /** The claimed shops the back office knows, in code order. */
  shops(): Promise<ShopRow[]> {
    const claimed = shopsInScope(this.caller);
    return claimed.length === 0 ? Promise.resolve([]) : shopsAmong(claimed, this.reads.reader());
  }
}

/** Makes the reader of each request's caller (a singleton: no request-scoped provider tree). */
@Injectable()
export class ShopScopedReaders {
  constructor(
    @Inject(ReadRouter) private readonly reads: ReadSource,
    @Optional() @Inject(FeedWaiters) private readonly waiters: FeedWaiters | null = null,
  ) {}

  for(caller: CallerClaims): ShopScopedReader {
    annotate({ 'enduser.id': caller.userId, 'pos_api.shop_count': caller.shopCodes.length });
    return new ShopScopedReader(caller, this.reads, this.waiters);
  }
}
