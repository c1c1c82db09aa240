import { Injectable, StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { Wall } from '../wall/wall';
import type { CallerClaims } from '../common/caller-claims';
import { inSpan } from '../common/tracing/spans';
import { type KeysetPosition, LIST } from '../sync/list/list.mode';
import type { RawQuery } from '../common/query/query-parameters';
import { negotiateReportFormat } from './report-format';
import { parseReportQuery, ReportQuery } from './report-query';
import { type ReportChunk, reportChunk, reportPieces } from './report-pieces';
import { REPORT_SALES } from './report.source';
import { CsvReportWriter, JsonReportWriter, ReportWriter } from './report-writers';

/** Sales read per chunk (some 1,000 rows): what the service holds in memory at a time. */
const REPORT_CHUNK_SALES = 250;

/**
 * TransactionDetailReport: every check (parameters, format, the first read through the caller's
 * the Wall, which applies the shop scope) happens before the response starts, so those
 * errors are problem+json. The body then streams chunk by chunk; the next chunk is read only when
 * the client has taken the previous one, so memory stays flat whatever the period. A failure after the first byte can only cut the
 * response short (the connection is reset; see docs/reports.md).
 */
@Injectable()
export class TransactionDetailReportService {
  constructor(private readonly wall: Wall) {}

  async open(
    caller: CallerClaims,
    raw: RawQuery,
    accept: string | undefined,
  ): Promise<StreamableFile> {
    const query = parseReportQuery(raw);
    const format = negotiateReportFormat(accept);
    const writer: ReportWriter =
      format === 'csv' ? new CsvReportWriter() : new JsonReportWriter(query);
    // The very keyset read of the sales pages (so both always agree), with the lines and payment
    // methods. Starting the range at the position itself (not only at From) gives SQLite an index
    // range that begins where the chunk does; without it each chunk rescans the period.
    const read = (after: KeysetPosition | null): Promise<ReportChunk> =>
      inSpan('report.chunk', { 'pos_api.page_size': REPORT_CHUNK_SALES }, () => readChunk(after));
    // By business date, the first chunk finds the time range of the dates' sales, and every
    // later one walks the same (the list's walk by business date, sync/list/list.mode.ts).
    let range: { from: string | null; to: string | null } = query.businessDates
      ? { from: null, to: null }
      : query;
    const readChunk = async (after: KeysetPosition | null): Promise<ReportChunk> => {
      const from = after ? after.time : range.from;
      const page = await this.wall.read(caller, LIST, REPORT_SALES, {
        ...query,
        ...range,
        from,
        after,
        limit: REPORT_CHUNK_SALES,
      });
      if (page.range) range = page.range;
      return reportChunk(page.rows, page.next);
    };
    const first = await read(null);
    const body = Readable.from(reportPieces(writer, first, read), { objectMode: false });
    return new StreamableFile(body, {
      type: writer.contentType,
      disposition: format === 'csv' ? `attachment; filename="${fileName(query)}"` : undefined,
    });
  }
}

function fileName(query: ReportQuery): string {
  const day = (stored: string): string => stored.slice(0, 10);
  const shop = query.shopCode ? `${query.shopCode.replace(/[^A-Za-z0-9_-]/g, '_')}_` : '';
  const by = query.businessDates ? 'BusinessDate_' : '';
  return `TransactionDetailReport_${shop}${by}${day(query.from)}_${day(query.to)}.csv`;
}
