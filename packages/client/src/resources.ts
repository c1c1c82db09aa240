import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type BulkOptions, BulkRead } from './bulk.js';
import { FeedPoll } from './feed.js';
import { CursorList, Resume } from './pagination.js';
import { nextCursorOfLink, type OpenedPage } from './prefetch.js';
import type { Transport } from './transport.js';
import type { BusinessDays, ListQuery, Shop, TransactionDetailReport } from './types.js';

export interface ListOptions extends ListQuery {
  /** Start from this cursor instead of the first page. */
  cursor?: string;
  /** Keep the position in a CursorStore and start from it (see CursorList). */
  resume?: Resume;
  /** Ask for the next page while this one is read (default true; see CursorList). */
  prefetch?: boolean;
  signal?: AbortSignal;
}

export interface FeedOptions {
  shopCode?: string;
  /**
   * Sales only: start at the sales that reached the back office since then (the back-office
   * database's clock, no zone). The payments and cash-movements feeds refuse it (400).
   */
  from?: string;
  /** Records per page, 1..500 (default 500). */
  limit?: number;
  /** Continue from this cursor (a feed's `nextCursor`). */
  cursor?: string;
  /** Keep the position in a CursorStore and continue from it on the next poll. */
  resume?: Resume;
  /**
   * Seconds the service may hold a call that would come back empty and caught up, until a
   * record arrives (`Wait`, docs/sync.md). Not bound into the cursor: each call may differ.
   */
  wait?: number;
  /** Ask for the next page while this one is read (default true; see CursorList). */
  prefetch?: boolean;
  signal?: AbortSignal;
}

/** One day of a digest: the count and checksum of that shop-local date's records. */
export interface DayDigest {
  date: string;
  count: number;
  checksum: string;
}

export interface DigestQuery {
  shopCode: string;
  /**
   * Shop-local dates (`YYYY-MM-DD`), from inclusive, to exclusive, at most 92 days apart: a day
   * of the wall-clock time. Or `businessDateFrom`/`businessDateTo`: a day of business dates.
   */
  from?: string;
  to?: string;
  businessDateFrom?: string;
  businessDateTo?: string;
  /**
   * The digest version whose fields the checksums cover (docs/sync.md, "Digest versions");
   * absent: the server's newest. A copy sends the version it was built on.
   */
  version?: number;
  signal?: AbortSignal;
}

/**
 * One cursor endpoint (`/sales`, `/payments`, `/cash-movements`), with its list by business time
 * and its feed in arrival order (`<path>/feed`, docs/sync.md), which take the same `resume`
 * stores, its digest, and its bulk read of history (`<path>/bulk`).
 */
export class CursorResource<T> {
  constructor(
    private readonly transport: Transport,
    private readonly path: string,
  ) {}

  list(options: ListOptions = {}): CursorList<T> {
    type Body = { data: T[]; nextCursor: string | null };
    const { shopCode, from, to, businessDateFrom, businessDateTo, limit, signal, prefetch } =
      options;
    const filters = {
      ShopCode: shopCode,
      From: from,
      To: to,
      BusinessDateFrom: businessDateFrom,
      BusinessDateTo: businessDateTo,
    };
    const open = (cursor: string | null, pageSignal?: AbortSignal) =>
      // With a cursor the service knows the query; given again, the filters must match.
      this.open<Body>(
        this.path,
        { ...filters, Limit: limit, Cursor: cursor ?? undefined },
        pageSignal ?? signal,
      );
    const fetchPage = async (cursor: string | null) => (await open(cursor)).body();
    return new CursorList<T>(fetchPage, options.cursor ?? null, options.resume, {
      open,
      prefetch,
      signal,
    });
  }

  /**
   * One poll of the resource's feed in arrival order: every record that reached the back office
   * after the cursor, page by page until caught up. Call it again later with the same `resume`
   * store (or `cursor: poll.cursor`) to get what arrived since; each record comes once.
   */
  feed(options: FeedOptions = {}): FeedPoll<T> {
    type Body = { data: T[]; nextCursor: string; caughtUp: boolean };
    const { shopCode, from, limit, wait, signal, prefetch } = options;
    const open = (cursor: string | null, pageSignal?: AbortSignal) =>
      // The cursor carries ShopCode and From: they are sent on the first call only.
      this.open<Body>(
        `${this.path}/feed`,
        cursor
          ? { Cursor: cursor, Limit: limit, Wait: wait }
          : { ShopCode: shopCode, From: from, Limit: limit, Wait: wait },
        pageSignal ?? signal,
      );
    const fetchPage = async (cursor: string | null) => (await open(cursor)).body();
    return new FeedPoll<T>(fetchPage, options.cursor ?? null, options.resume, {
      open,
      prefetch,
      signal,
    });
  }

  /**
   * Every record of one shop and period in one stream (`<path>/bulk`, docs/sync.md, "The bulk
   * read"), for a first copy of history: iterate it for its batches, each handed over once the
   * stream says it is whole; a cut stream goes on from its last checkpoint by itself. After the
   * first batch, `start.feedCursor` is where the feed stood before the read: follow the feed
   * from it for what commits meanwhile.
   */
  bulk(options: BulkOptions): BulkRead<T> {
    return new BulkRead<T>(this.transport, `${this.path}/bulk`, options);
  }

  /** Asks for one page; resolves at its headers, with the Link header's next cursor. */
  private async open<B>(
    path: string,
    query: Record<string, string | number | undefined>,
    signal: AbortSignal | undefined,
  ): Promise<OpenedPage<B>> {
    const response = await this.transport.get(path, { query, signal });
    const linkCursor = nextCursorOfLink(
      response.headers.get('link'),
      response.url || this.transport.url(path, query),
    );
    return { linkCursor, body: () => response.json() as Promise<B> };
  }

  /**
   * The per-day digest of one shop (`<path>/digest`): every date of the range, empty days
   * included, with the count and the checksum of that day's records (docs/sync.md).
   */
  async digest(query: DigestQuery): Promise<DayDigest[]> {
    const response = await this.transport.get(`${this.path}/digest`, byDates(query));
    return ((await response.json()) as { data: DayDigest[] }).data;
  }
}

/**
 * A client's cursor resource by its generated property (`cashMovements`), for the code that
 * walks every resource of a kind (the mirror's tables, the exports): one without a feed, or a
 * property the client lacks, is an error naming it.
 */
export function cursorResourceOf<T>(client: object, property: string): CursorResource<T> {
  const resource = (client as Record<string, CursorResource<T> | undefined>)[property];
  if (typeof resource?.feed !== 'function')
    throw new Error(`The client has no cursor resource ${property} with a feed: regenerate it.`);
  return resource;
}

/** The request of a shop's dates (a digest, the day close): the dates and the Version. */
function byDates(query: DigestQuery) {
  const { shopCode, from, to, businessDateFrom, businessDateTo, version, signal } = query;
  const versioned = version === undefined ? {} : { Version: String(version) };
  const dates = {
    From: from,
    To: to,
    BusinessDateFrom: businessDateFrom,
    BusinessDateTo: businessDateTo,
  };
  return { query: { ShopCode: shopCode, ...dates, ...versioned }, signal };
}

export class ShopsResource {
  constructor(private readonly transport: Transport) {}

  /** The shops the token may read: code, name, time zone, currency. */
  async list(options: { signal?: AbortSignal } = {}): Promise<Shop[]> {
    const response = await this.transport.get('/api/v1.0/shops', options);
    return ((await response.json()) as { data: Shop[] }).data;
  }
}

export interface BusinessDaysQuery {
  shopCode: string;
  /** Business dates (`YYYY-MM-DD`), from inclusive, to exclusive, at most 92 days apart. */
  from: string;
  to: string;
  /** The digest version of the days' `digests` (as DigestQuery's); absent: the newest. */
  version?: number;
  signal?: AbortSignal;
}

/** GET /business-days: the day close of one shop, one entry per business date of the period. */
export class BusinessDaysResource {
  constructor(private readonly transport: Transport) {}

  /**
   * Every business date from `from` to `to`, empty days included: sales, payments, drawer cash
   * and the digests of that day. A shop outside the token gives no days.
   */
  async close(query: BusinessDaysQuery): Promise<BusinessDays> {
    const response = await this.transport.get('/api/v1.0/business-days', byDates(query));
    return (await response.json()) as BusinessDays;
  }
}

export interface ReportQuery {
  /** Shop-local date-times without a zone; at most 31 days apart. */
  from: string;
  to: string;
  shopCode?: string;
  signal?: AbortSignal;
}

/**
 * TransactionDetailReport: 12 calls a minute per user. A 429 waits Retry-After (bounded, see
 * RetryOptions) before the call is made again.
 */
export class ReportsResource {
  constructor(private readonly transport: Transport) {}

  transactionDetail(query: ReportQuery & { format?: 'json' }): Promise<TransactionDetailReport>;
  /** The CSV as a stream of bytes (RFC 4180, header row, CRLF), for a file or a pipe. */
  transactionDetail(query: ReportQuery & { format: 'csv' }): Promise<Readable>;
  async transactionDetail(
    query: ReportQuery & { format?: 'json' | 'csv' },
  ): Promise<TransactionDetailReport | Readable> {
    const csv = query.format === 'csv';
    const response = await this.transport.get('/api/v1.0/TransactionDetailReport', {
      query: { ShopCode: query.shopCode, From: query.from, To: query.to },
      accept: csv ? 'text/csv' : 'application/json',
      signal: query.signal,
    });
    if (!csv) return (await response.json()) as TransactionDetailReport;
    if (!response.body) return Readable.from([]);
    return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  }
}
