import { annotate, inSpan } from '../common/tracing/spans';
import { Inject, Injectable } from '@nestjs/common';
import type { CallerClaims, ScopedToShops } from '../common/caller-claims';
import type { FeedQuery, FeedSlice } from '../common/pagination/feed-query';
import type { KeysetSource } from '../common/pagination/keyset-query';
import type { KeysetSlice, SqlReader } from '../common/pagination/keyset-resource';
import type { PageQuery } from '../common/pagination/page-query';
import { PrimaryReader, ReadRouter } from '../database/replicas/read-router';
import { readArrivals } from './arrival-reader';
import { readKeyset } from './keyset-reader';
import type {
  CashMovementRow,
  PaymentRow,
  ReportChunk,
  SaleRow,
  SaleWithLines,
  ShopRow,
} from './read-models';
import { shopsInScope } from './shop-scope';
import { CASH_MOVEMENTS } from './tables/cash-movements.table';
import { PAYMENTS, paymentMethodsOf } from './tables/payments.table';
import { SALE_ARRIVALS, SALES, withLines } from './tables/sales.table';
import { shopsAmong } from './tables/shops.table';

/** Where the reads of a unit of work go: ReadRouter (a replica or the primary), or a bare pool. */
interface ReadSource {
  reader(): SqlReader;
  /**
   * The primary only, on one connection for the whole of `work`, with its READ UNCOMMITTED
   * reader on MySQL/MariaDB (the feeds).
   */
  withPrimary<T>(work: (db: PrimaryReader) => Promise<T>): Promise<T>;
}

/**
 * The only road to the business data: every read of sales (with their lines), payments, cash
 * movements, the report's chunks and the shops goes through a reader bound to one caller's
 * verified claims. No method takes a list of shops or ids: each narrows the query's ShopCode to
 * the claims itself, so a shop outside them reads nothing and runs no query, exactly as an
 * unknown one. Each method is one unit of work with one ReadRouter reader (a page and its lines,
 * a chunk with its lines and payment methods come from one replica, or the primary).
 *
 * The feeds (sales, payments, cash movements in arrival order) read the primary only: a replica
 * behind it would hide committed rows the feed must not step over (arrival-reader.ts).
 *
 * A new kind of read is one more method here over its own table file in tables/, and one more
 * read model in read-models.ts; the others stay as they are.
 */
export class ShopScopedReader implements ScopedToShops {
  constructor(
    readonly caller: CallerClaims,
    private readonly reads: ReadSource,
  ) {}

  covers(shopCode: string): boolean {
    return shopsInScope(this.caller, shopCode).length > 0;
  }

  /** A page of sales with their lines, in (sold_at, id) order. */
  async salesPage(query: PageQuery): Promise<KeysetSlice<SaleWithLines>> {
    const db = this.reads.reader();
    const { rows, next } = await readKeyset<SaleRow>(SALES, this.scope(query), query, db);
    return { rows: await withLines(rows, db), next };
  }

  /** A page of payments, in (paid_at, id) order. */
  paymentsPage(query: PageQuery): Promise<KeysetSlice<PaymentRow>> {
    return this.page<PaymentRow>(PAYMENTS, query);
  }

  /** A page of cash movements, in (moved_at, id) order. */
  cashMovementsPage(query: PageQuery): Promise<KeysetSlice<CashMovementRow>> {
    return this.page<CashMovementRow>(CASH_MOVEMENTS, query);
  }

  /** A page of the feed of sales with their lines, in arrival (id) order, from the primary. */
  salesFeed(query: FeedQuery): Promise<FeedSlice<SaleWithLines>> {
    return this.reads.withPrimary(async (db) => {
      const slice = await readArrivals<SaleRow>(SALE_ARRIVALS, this.scope(query), query, db);
      return { ...slice, rows: await withLines(slice.rows, db) };
    });
  }

  /** A page of the feed of payments, in arrival (id) order, from the primary. */
  paymentsFeed(query: FeedQuery): Promise<FeedSlice<PaymentRow>> {
    return this.reads.withPrimary((db) =>
      readArrivals<PaymentRow>(PAYMENTS, this.scope(query), query, db),
    );
  }

  /** A page of the feed of cash movements, in arrival (id) order, from the primary. */
  cashMovementsFeed(query: FeedQuery): Promise<FeedSlice<CashMovementRow>> {
    return this.reads.withPrimary((db) =>
      readArrivals<CashMovementRow>(CASH_MOVEMENTS, this.scope(query), query, db),
    );
  }

  /**
   * A chunk of the report: the sales of the period after `query.after`, with the very keyset
   * read of the sales pages (so both always agree), their lines and their payment methods.
   */
  reportChunk(query: PageQuery): Promise<ReportChunk> {
    return inSpan('report.chunk', { 'pos_api.page_size': query.limit }, () =>
      this.readReportChunk(query),
    );
  }

  private async readReportChunk(query: PageQuery): Promise<ReportChunk> {
    const db = this.reads.reader();
    // Starting the range at the position itself (not only at From) gives SQLite an index range
    // that begins where the chunk does; without it each chunk rescans the period from its start.
    const bounds = query.after ? { ...query, from: query.after.time } : query;
    const { rows, next } = await readKeyset<SaleRow>(SALES, this.scope(query), bounds, db);
    const sales = await withLines(rows, db);
    return { sales, paymentMethods: await paymentMethodsOf(sales, db), next };
  }

  /** The claimed shops the back office knows, in code order. */
  shops(): Promise<ShopRow[]> {
    const claimed = shopsInScope(this.caller);
    return claimed.length === 0 ? Promise.resolve([]) : shopsAmong(claimed, this.reads.reader());
  }

  private scope(query: { shopCode: string | null }): string[] {
    return shopsInScope(this.caller, query.shopCode ?? undefined);
  }

  private page<R>(source: KeysetSource, query: PageQuery): Promise<KeysetSlice<R>> {
    return readKeyset<R>(source, this.scope(query), query, this.reads.reader());
  }
}

/** Makes the reader of each request's caller (a singleton: no request-scoped provider tree). */
@Injectable()
export class ShopScopedReaders {
  constructor(@Inject(ReadRouter) private readonly reads: ReadSource) {}

  for(caller: CallerClaims): ShopScopedReader {
    annotate({ 'enduser.id': caller.userId, 'pos_api.shop_count': caller.shopCodes.length });
    return new ShopScopedReader(caller, this.reads);
  }
}
