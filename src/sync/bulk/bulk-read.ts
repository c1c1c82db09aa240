import { Injectable, Logger, StreamableFile } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { CallerClaims } from '../../common/caller-claims';
import type { RawQuery } from '../../common/query/query-parameters';
import { localDateTime } from '../../common/sql-values';
import { toProblem } from '../../common/errors/to-problem';
import { Wall } from '../../wall/wall';
import { FEED } from '../feed/feed.mode';
import { type KeysetPosition, LIST, type ListSlice } from '../list/list.mode';
import { CursorCodec } from '../paging/cursor-codec';
import type { PageQuery } from '../../wall/list-read';
import type { Source } from '../../catalogue/source';
import { bulkRoute, parseBulkRequest } from './bulk-query';

/** Records written a piece: between pieces the event loop reads the next chunk's answers. */
const PIECE_RECORDS = 100;

/** The media type of a bulk read: one JSON value a line (docs/sync.md, "The bulk read"). */
export const NDJSON = 'application/x-ndjson';

/** Any line of a bulk read's stream, by its `type`. */
export type BulkLine<T = unknown> =
  BulkStartLine | { type: 'record'; record: T } | BulkCheckpointLine | BulkEndLine | BulkErrorLine;

/** What a bulk read streams: a resource's list over its source (the list's read and mapper). */
export interface BulkEndpoint<R extends { id: string }, T> {
  /** The resource's route (`sales`): its list's, its checkpoints' (`sales/bulk`), its feed's. */
  resource: string;
  source: Source<R>;
  toRecord(row: R): T;
  /** Whether the resource has a feed: the start line then gives its cursor. */
  feed: boolean;
}

/** The first line: what the stream holds, and the feed's cursor taken before its first read. */
export interface BulkStartLine {
  type: 'start';
  resource: string;
  shopCode: string;
  /** The period asked (shop-local date-times); null when business dates were asked instead. */
  from: string | null;
  to: string | null;
  /** The business dates asked (BusinessDateFrom, BusinessDateTo); null when a period was. */
  businessDateFrom: string | null;
  businessDateTo: string | null;
  /** Where the resource's feed stood before the read; null without a feed, and when resumed. */
  feedCursor: string | null;
}

/** Records so far in this response, and the cursor that resumes after them. */
export interface BulkCheckpointLine {
  type: 'checkpoint';
  count: number;
  cursor: string;
}

/** The last line of a whole stream: the records it sent, and the SHA-256 of their lines. */
export interface BulkEndLine {
  type: 'end';
  count: number;
  checksum: string;
}

/** The last line of a stream cut by an error after its first line: the problem, and where to resume. */
export interface BulkErrorLine {
  type: 'error';
  status: number;
  title: string;
  detail: string;
  /** The last checkpoint's cursor (null before the first: start again without one). */
  cursor: string | null;
}

/**
 * GET /<resource>/bulk (issue 55): every record of one shop and period in one NDJSON response,
 * in the list's (time, id) order, read chunk by chunk through the wall with the list's own read
 * and mapper, as a stream with backpressure (a chunk is read when the client has taken the one
 * before). Lines, in order:
 *
 * - `start`: the resource, shop and period, and the feed's cursor at where the feed stood
 *   *before* the first read (Wall.feedEnd): the feed from it delivers every record committed
 *   later, so nothing falls between the stream and the feeds;
 * - one `record` line a record (`{"type":"record","record":{…}}`, the record as the list gives it);
 * - a `checkpoint` after every BULK_CHECKPOINT_RECORDS records, with the signed cursor that
 *   resumes after them (`Cursor=`);
 * - `end`: the count of records sent and `sha256:` of their lines' bytes, newlines included, so
 *   that a cut or a corrupted transfer is seen; or `error`: a problem after the first line (the
 *   database gone), with the last checkpoint's cursor. A stream without either was cut.
 *
 * Errors before the first line (the query, the budget) are problem+json answers as everywhere.
 */
@Injectable()
export class BulkReader {
  private readonly logger = new Logger('BulkReader');

  constructor(
    private readonly wall: Wall,
    private readonly cursors: CursorCodec,
  ) {}

  async open<R extends { id: string }, T>(
    endpoint: BulkEndpoint<R, T>,
    caller: CallerClaims,
    raw: RawQuery,
    instance: string,
  ): Promise<StreamableFile> {
    const request = parseBulkRequest(raw, endpoint.resource, caller, this.cursors);
    const { shopCode, from, to, businessDates = null } = request.filters;
    // Before the first read: the feed delivers whatever commits from here on. The cursor is the
    // feed mode's own, as a page of the shop's feed caught up at that position would give it.
    const feedCursor =
      endpoint.feed && request.after === null
        ? FEED.envelope(
            { shopCode, since: null, afterId: null, limit: 0, wait: 0 },
            {
              position: await this.wall.feedEnd(caller, endpoint.source, shopCode),
              caughtUp: true,
            },
            this.cursors.signer(`${endpoint.resource}/${FEED.route}`, caller.userId),
          ).nextCursor
        : null;
    const start: BulkStartLine = {
      type: 'start',
      resource: endpoint.resource,
      shopCode,
      from: businessDates || from === null ? null : localDateTime(from),
      to: businessDates || to === null ? null : localDateTime(to),
      businessDateFrom: businessDates?.from ?? null,
      businessDateTo: businessDates?.to ?? null,
      feedCursor,
    };
    let filters = request.filters;
    const query = (after: KeysetPosition | null): PageQuery =>
      LIST.query({ ...request, filters, after });
    const read = (after: KeysetPosition | null) =>
      this.wall.read(caller, LIST, endpoint.source, query(after));
    // A checkpoint is the list mode's cursor of the next chunk, signed for this route.
    const sign = this.cursors.signer(bulkRoute(endpoint.resource), caller.userId);
    const asked = query(request.after);
    const checkpointOf = (slice: ListSlice<R>) => LIST.envelope(asked, slice, sign).nextCursor;
    // The first chunk is read before the answer starts: its errors are problems, as a page's.
    const first = await read(request.after);
    // By business date the first read finds the dates' time range: every later chunk walks it.
    if (first.range) filters = { ...filters, from: first.range.from, to: first.range.to };
    const lines = this.lines(endpoint, { start, first, read, checkpointOf, instance });
    return new StreamableFile(Readable.from(lines, { objectMode: false }), { type: NDJSON });
  }

  private async *lines<R extends { id: string }, T>(
    endpoint: BulkEndpoint<R, T>,
    stream: {
      start: BulkStartLine;
      first: ListSlice<R>;
      read: (after: KeysetPosition | null) => Promise<ListSlice<R>>;
      checkpointOf: (slice: ListSlice<R>) => string | null;
      instance: string;
    },
  ): AsyncGenerator<string | Buffer> {
    const { start, first, read, checkpointOf, instance } = stream;
    yield `${JSON.stringify(start)}\n`;
    const hash = createHash('sha256');
    let count = 0;
    let checkpoint: string | null = null;
    let slice: ListSlice<R> | null = first;
    try {
      while (slice) {
        // The next chunk is read while this one is written and sent (one ahead at most): the
        // database works beside the event loop instead of in turn with it.
        const ahead: Promise<ListSlice<R>> | null = slice.next ? read(slice.next) : null;
        // A stream closed before it is awaited must not leave its rejection unhandled.
        ahead?.catch(() => undefined);
        const { rows } = slice;
        for (let at = 0; at < rows.length; at += PIECE_RECORDS) {
          let text = '';
          for (let i = at; i < Math.min(at + PIECE_RECORDS, rows.length); i++) {
            text += `{"type":"record","record":${JSON.stringify(endpoint.toRecord(rows[i]))}}\n`;
          }
          const bytes = Buffer.from(text);
          hash.update(bytes);
          yield bytes;
        }
        count += rows.length;
        const cursor = checkpointOf(slice);
        if (cursor) {
          checkpoint = cursor;
          const line: BulkCheckpointLine = { type: 'checkpoint', count, cursor };
          yield `${JSON.stringify(line)}\n`;
        }
        slice = ahead ? await ahead : null;
      }
      const end: BulkEndLine = { type: 'end', count, checksum: `sha256:${hash.digest('hex')}` };
      yield `${JSON.stringify(end)}\n`;
    } catch (error) {
      const problem = toProblem(error, instance);
      if (problem.unexpected) {
        this.logger.error(`Bulk read cut after ${count} records: ${String(error)}`);
      }
      const line: BulkErrorLine = {
        type: 'error',
        status: problem.status,
        title: problem.body.title,
        detail: problem.body.detail,
        cursor: checkpoint,
      };
      yield `${JSON.stringify(line)}\n`;
    }
  }
}
