import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { CursorList, Resume } from './pagination.js';
import type { Transport } from './transport.js';
import type { ListQuery, Shop, TransactionDetailReport } from './types.js';

export interface ListOptions extends ListQuery {
  /** Start from this cursor instead of the first page. */
  cursor?: string;
  /** Keep the position in a CursorStore and start from it (see CursorList). */
  resume?: Resume;
  signal?: AbortSignal;
}

/**
 * One cursor endpoint (`/sales`, `/payments`, `/cash-movements`). Every cursor-paginated route
 * shares it: the ingestion-ordered feed (issue 14), once it exists, is one more instance with
 * its own path and record type, and takes the same `resume` store.
 */
export class CursorResource<T> {
  constructor(
    private readonly transport: Transport,
    private readonly path: string,
  ) {}

  list(options: ListOptions = {}): CursorList<T> {
    const { shopCode, from, to, limit, signal } = options;
    const fetchPage = async (cursor: string | null) => {
      // With a cursor the service knows the query; given again, the filters must match.
      const query = {
        ShopCode: shopCode,
        From: from,
        To: to,
        Limit: limit,
        Cursor: cursor ?? undefined,
      };
      const response = await this.transport.get(this.path, { query, signal });
      return (await response.json()) as { data: T[]; nextCursor: string | null };
    };
    return new CursorList<T>(fetchPage, options.cursor ?? null, options.resume);
  }
}

export class ShopsResource {
  constructor(private readonly transport: Transport) {}

  /** The shops the token may read: code, name, time zone, currency. */
  async list(options: { signal?: AbortSignal } = {}): Promise<Shop[]> {
    const response = await this.transport.get('/api/v1.0/shops', options);
    return ((await response.json()) as { data: Shop[] }).data;
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
