import { createHash, type Hash } from 'node:crypto';
import { ApiError, PosReadError } from './errors.js';
import type { components } from './generated/openapi.js';
import type { Transport } from './transport.js';

/** The media type of a bulk read: one JSON value a line (docs/sync.md, "The bulk read"). */
export const NDJSON = 'application/x-ndjson';

type Schemas = components['schemas'];
/** A bulk read's first line: the resource, shop and period, and the feed's cursor before it. */
export type BulkStart = Schemas['BulkStartLine'];
type Checkpoint = Schemas['BulkCheckpointLine'];
type End = Schemas['BulkEndLine'];
type ErrorLine = Schemas['BulkErrorLine'];

export interface BulkOptions {
  /** One shop a read (the service's rule). */
  shopCode: string;
  /**
   * Shop-local date-times without a zone (`2026-01-01` or `2026-01-01T06:00:00`), From
   * inclusive, To exclusive, at most 1,096 days apart. Not needed with `cursor`.
   */
  from?: string;
  to?: string;
  /**
   * Instead of from and to: business dates (`YYYY-MM-DD`), From inclusive, To exclusive, at most
   * 1,096 days apart; the records whose `businessDate` is in them.
   */
  businessDateFrom?: string;
  businessDateTo?: string;
  /** Go on after this checkpoint (a batch's `cursor`) instead of from the period's start. */
  cursor?: string;
  signal?: AbortSignal;
}

/**
 * Records of a bulk read, handed over once the line after them says they are whole: the
 * checkpoint that follows them, or the end line whose count and checksum match.
 */
export interface BulkBatch<T> {
  /** In the list's order; at most the service's checkpoint interval (1,000). */
  records: T[];
  /**
   * Each record's line as it arrived (`{"type":"record","record":{…}}` and its newline), in the
   * same order: for a consumer that keeps the bytes (pos-read's Parquet spool) and need not
   * encode the records again.
   */
  lines: Uint8Array[];
  /** Go on after these records with this cursor (`cursor` option); null: the read is complete. */
  cursor: string | null;
  /**
   * Set when a response's end line did not match what arrived (a corrupted transfer): the
   * batches handed over since the batch whose `cursor` is `after` (null: since the read began)
   * were not what the server sent. Drop them; this batch starts their reading again.
   */
  rewound?: { after: string | null };
}

/** Longest line taken (a record is a few kilobytes): anything longer is a broken stream. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;

/** A response that did not end whole: where to read again from, and why. */
class Cut extends Error {
  constructor(
    message: string,
    /** The response's records since its start were not what the server sent: drop them. */
    readonly corrupted = false,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The complete lines of a byte stream, each with its newline, however the chunks fall. */
async function* linesOf(body: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const bytes of body) {
    const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, at + 1);
      yield pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      pendingBytes = 0;
      start = at + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_LINE_BYTES)
        throw new Cut(`a line longer than ${MAX_LINE_BYTES} bytes`);
    }
  }
  if (pendingBytes > 0) throw new Cut('the stream ended inside a line');
}

type Line =
  | BulkStart
  | { type: 'record'; record: unknown }
  | Checkpoint
  | End
  | ErrorLine
  | { type?: undefined };

function parse(line: Buffer): Line {
  try {
    const value = JSON.parse(line.toString('utf8')) as Line;
    if (value && typeof value === 'object') return value;
  } catch {
    // below
  }
  throw new Cut('a line that is not JSON', true);
}

/** Where a read stands: the last checkpoint handed over, the response's start, the failures. */
interface Position {
  /** The cursor after the last batch handed over (null: none yet, the read's start). */
  after: string | null;
  /** The cursor the read was asked to start from. */
  readonly initial: string | null;
}

/**
 * `GET /<resource>/bulk` (docs/sync.md, "The bulk read"): one shop and period in one NDJSON
 * stream, parsed as it arrives with memory bounded by one checkpoint's records. Iterate it for
 * its batches (`for await (const batch of read)`): each is the records up to a checkpoint (or
 * the end), handed over only once that line arrived, so a stream cut, ended by an `error` line
 * or holding a line that is not JSON is read again from the last checkpoint, after the client's
 * back-off (RetryOptions: `maxRetries` failures in a row without progress), and nothing is
 * handed over twice or lost. The end line's count and SHA-256 of the record lines' bytes are
 * checked; a mismatch reads that response again from its start, and the batch that follows says
 * which batches it replaces (`rewound`). Refusals before the first line (400, 401, 429, 503)
 * follow the client's rules as every request does.
 */
export class BulkRead<T> implements AsyncIterable<BulkBatch<T>> {
  /** The first response's start line, once it arrived: its `feedCursor` is the hand-over. */
  start: BulkStart | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly path: string,
    private readonly options: BulkOptions,
  ) {}

  private open(cursor: string | null): Promise<Response> {
    const { shopCode, from, to, businessDateFrom, businessDateTo, signal } = this.options;
    // Parameters left undefined are not sent: a period or business dates, as the caller gave.
    const query = cursor
      ? { Cursor: cursor }
      : {
          ShopCode: shopCode,
          From: from,
          To: to,
          BusinessDateFrom: businessDateFrom,
          BusinessDateTo: businessDateTo,
        };
    // Uncompressed: fetch's own gzip decoding (undici, Node 20) reads ahead of a slow consumer
    // without backpressure, and a year's read held 967 MB in the client (decision 55.3.2).
    return this.transport.get(this.path, {
      query,
      accept: NDJSON,
      acceptEncoding: 'identity',
      signal,
    });
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<BulkBatch<T>, void, undefined> {
    const initial = this.options.cursor ?? null;
    const at: Position = { after: initial, initial };
    let failures = 0;
    let rewound: { after: string | null } | undefined;
    for (;;) {
      // Each response starts at the last checkpoint handed over; a corrupted one at its own start.
      const responseStart = at.after;
      let handedOver = false;
      try {
        const response = await this.open(responseStart);
        for await (const batch of this.batches(response)) {
          if (rewound) batch.rewound = rewound;
          rewound = undefined;
          failures = 0;
          handedOver = true;
          at.after = batch.cursor;
          yield batch;
          if (batch.cursor === null) return;
        }
        throw new Cut('the stream ended without its end line');
      } catch (error) {
        if (!(error instanceof Cut)) {
          if (this.options.signal?.aborted) throw this.options.signal.reason;
          if (error instanceof PosReadError) throw error;
        }
        // Else the body's connection lost mid-way: a cut like any other.
        const cut =
          error instanceof Cut ? error : new Cut(String((error as Error)?.message ?? error));
        if (cut.corrupted) {
          // What this response handed over is suspect: read it again from where it began.
          if (handedOver) rewound = { after: responseStart === at.initial ? null : responseStart };
          at.after = responseStart;
        }
        const what = `GET ${this.path} (${this.options.shopCode})`;
        if (failures >= this.transport.maxRetries) {
          throw new ApiError(`${what} was cut ${failures + 1} times: ${cut.message}.`);
        }
        await this.transport.backoff(
          what,
          failures++,
          cut.message,
          this.options.signal,
          cut.retryAfterSeconds,
        );
      }
    }
  }

  /** The batches of one response; throws a Cut when it does not end whole. */
  private async *batches(response: Response): AsyncGenerator<BulkBatch<T>> {
    if (!response.body) throw new Cut('an answer without a body');
    const hash: Hash = createHash('sha256');
    let records: T[] = [];
    let lines: Uint8Array[] = [];
    let count = 0;
    let started = false;
    for await (const bytes of linesOf(response.body)) {
      const line = parse(bytes);
      if (!started) {
        if (line.type !== 'start')
          throw new Cut('a stream that does not begin with its start line', true);
        started = true;
        // The first response's: a later one's feed cursor is later (or null, when resumed).
        this.start ??= line;
        continue;
      }
      switch (line.type) {
        case 'record':
          hash.update(bytes);
          records.push(line.record as T);
          lines.push(bytes);
          count++;
          break;
        case 'checkpoint':
          if (line.count !== count)
            throw new Cut(`a checkpoint after ${line.count} records, ${count} received`, true);
          yield { records, lines, cursor: line.cursor };
          records = [];
          lines = [];
          break;
        case 'end': {
          const checksum = `sha256:${hash.digest('hex')}`;
          if (line.count !== count || line.checksum !== checksum) {
            throw new Cut(
              `an end line of ${line.count} records (${line.checksum}) after ${count} received (${checksum})`,
              true,
            );
          }
          yield { records, lines, cursor: null };
          return;
        }
        case 'error':
          if (line.status < 500 && line.status !== 429) {
            throw new ApiError(
              `GET ${this.path} stopped with ${line.status} (${line.title}: ${line.detail}).`,
              line.status,
            );
          }
          throw new Cut(`an error line (${line.status} ${line.title}: ${line.detail})`);
        default:
          throw new Cut('a line of no known type', true);
      }
    }
  }
}
