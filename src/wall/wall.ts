import { Inject, Injectable } from '@nestjs/common';
import type { Source } from '../catalogue/source';
import type { CallerClaims } from '../common/caller-claims';
import type { BusinessDates } from '../common/query/filter-parameters';
import { annotate } from '../common/tracing/spans';
import { type PrimaryReader, ReadRouter } from '../database/replicas/read-router';
import type { SqlReader } from '../database/sql-reader';
import { type ShopScope, shopsInScope } from './shop-scope';
import { coverOf, readBusinessDateRanges } from './sql/business-date-range';
import { type DayFingerprints, readFingerprints } from './sql/day-fingerprint';
import { type DayBounds, readBusinessDay, readDay } from './sql/day-reader';
import { readFeedEnd } from './sql/feed-end';
import { shopsAmong, type ShopRow } from './sql/shops.sql';

export type { ShopRow } from './sql/shops.sql';

/** Where the reads of a unit of work go: ReadRouter (a replica or the primary), or a bare pool. */
export interface ReadSource {
  reader(): SqlReader;
  /**
   * The primary only, on one connection for the whole of `work`, with its READ UNCOMMITTED
   * reader on MySQL/MariaDB (the feeds).
   */
  withPrimary<T>(work: (db: PrimaryReader) => Promise<T>): Promise<T>;
}

/** What every scoped read's query holds: the requested shop (narrowed here) and the page size. */
export interface ScopedQuery {
  shopCode: string | null;
  limit: number;
}

/**
 * A read of one slice of a source for the shops of a scope (a pagination mode's: the list's keyset
 * read, the feed's arrival read), through `reads`. Only the wall calls it, with a scope it made
 * from the caller's claims.
 */
export interface ScopedRead<Q extends ScopedQuery, X extends object> {
  read<R extends { id: string }>(
    source: Source<R>,
    scope: ShopScope,
    query: Q,
    reads: ReadSource,
  ): Promise<{ rows: R[] } & X>;
}

/** One digest's reads of one shop (Wall.dayReads). */
export interface DayReads<R> {
  fingerprints(period: DayBounds): Promise<DayFingerprints>;
  /** A date's rows, and the fingerprint of exactly these rows (sql/day-reader.ts). */
  day(day: DayBounds): Promise<{ rows: R[]; fingerprint: string }>;
  /** The rows whose business date is `date` (`YYYY-MM-DD`), in id order (sql/day-reader.ts). */
  businessDay(date: string): Promise<R[]>;
}

/**
 * The wall: the only road to the business data. Every read of a resource's source (a list or
 * feed page, a digest's days, the day close's ranges, the report's chunks) and of the shops takes
 * the caller's verified claims and narrows the query's ShopCode to them here, into the ShopScope
 * that every read of sql/ takes and only shopsInScope makes: a shop outside the claims reads
 * nothing and runs no query, exactly as an unknown one. No method takes a list of shops or ids.
 * Each call is one unit of work with one ReadRouter reader (a page and its lines come from one
 * replica, or the primary); the feeds' read asks for the primary itself.
 */
@Injectable()
export class Wall {
  constructor(@Inject(ReadRouter) private readonly reads: ReadSource) {}

  /** One slice of `source` read by `mode`, for the caller's shops narrowed to the query's ShopCode. */
  read<Q extends ScopedQuery, X extends object, R extends { id: string }>(
    caller: CallerClaims,
    mode: ScopedRead<Q, X>,
    source: Source<R>,
    query: Q,
  ): Promise<{ rows: R[] } & X> {
    return mode.read(source, scopeOf(caller, query.shopCode ?? undefined), query, this.reads);
  }

  /** Whether the caller's claims reach this shop (exact code): a digest of any other is empty. */
  covers(caller: CallerClaims, shopCode: string): boolean {
    return scopeOf(caller, shopCode).length > 0;
  }

  /**
   * The reads of one digest of `source` for one shop (narrowed to the claims: another reads
   * nothing and runs no query), all on one reader (one replica or the primary, one state of the
   * data: sql/day-reader.ts): the fingerprints of a period's dates, and every record of a date in
   * id order with what the source attaches.
   */
  dayReads<R extends { id: string }>(
    caller: CallerClaims,
    source: Source<R>,
    shopCode: string,
  ): DayReads<R> {
    const shops = scopeOf(caller, shopCode);
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
  async businessDateRanges(
    caller: CallerClaims,
    source: Source<unknown>,
    shopCode: string,
    dates: BusinessDates,
  ) {
    const shops = scopeOf(caller, shopCode);
    const days = await readBusinessDateRanges(source, shops, dates, this.reads.reader());
    return { days, cover: coverOf(days.values()) };
  }

  /**
   * Where the feed of `source` for one shop (narrowed to the claims) stands now: the id below
   * which everything is committed (sql/feed-end.ts), read on the primary as the feeds are; '0'
   * for a shop outside the claims, which runs no query (its feed is empty too).
   */
  feedEnd(caller: CallerClaims, source: Source<unknown>, shopCode: string): Promise<string> {
    const shops = scopeOf(caller, shopCode);
    if (shops.length === 0) return Promise.resolve('0');
    return this.reads.withPrimary((db) => readFeedEnd(source, shops, db));
  }

  /** The claimed shops the back office knows, in code order. */
  shops(caller: CallerClaims): Promise<ShopRow[]> {
    const claimed = scopeOf(caller);
    return claimed.length === 0 ? Promise.resolve([]) : shopsAmong(claimed, this.reads.reader());
  }
}

/** The caller's claims narrowed to `shopCode` (all of them without one), named on the trace. */
function scopeOf(caller: CallerClaims, shopCode?: string): ShopScope {
  annotate({ 'enduser.id': caller.userId, 'pos_api.shop_count': caller.shopCodes.length });
  return shopsInScope(caller, shopCode);
}
