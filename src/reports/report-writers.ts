import { stringify } from 'csv-stringify/sync';
import { localDateTime } from '../common/sql-values';
import { CSV_TEXT_COLUMNS, neutraliseFormula } from './csv-formula';
import type { ReportQuery } from './report-query';
import type { ReportTotalsDto } from './dto/report-totals.dto';
import type { TransactionDetailRowDto } from './dto/transaction-detail-row.dto';
import { REPORT_COLUMNS } from './transaction-detail.row';

/**
 * Writes the report as text pieces while rows stream: the opening, the rows of each chunk, the
 * closing. Concatenated, the pieces are one JSON document or one CSV file.
 */
export interface ReportWriter {
  readonly contentType: string;
  open(): string;
  rows(rows: TransactionDetailRowDto[]): string;
  close(totals: ReportTotalsDto): string;
}

/** `{"from":…,"to":…,"rows":[…],"totals":{…}}`, rows with the keys in REPORT_COLUMNS order. */
export class JsonReportWriter implements ReportWriter {
  readonly contentType = 'application/json; charset=utf-8';
  private first = true;

  constructor(private readonly query: ReportQuery) {}

  open(): string {
    const from = JSON.stringify(localDateTime(this.query.from));
    const to = JSON.stringify(localDateTime(this.query.to));
    const dates = this.query.businessDates;
    const by = dates
      ? `,"businessDateFrom":${JSON.stringify(dates.from)},"businessDateTo":${JSON.stringify(dates.to)}`
      : '';
    return `{"from":${from},"to":${to}${by},"rows":[`;
  }

  rows(rows: TransactionDetailRowDto[]): string {
    if (rows.length === 0) return '';
    const text = rows.map((row) => JSON.stringify(row)).join(',');
    const separator = this.first ? '' : ',';
    this.first = false;
    return separator + text;
  }

  close(totals: ReportTotalsDto): string {
    return `],"totals":${JSON.stringify(totals)}}`;
  }
}

const COLUMNS = [...REPORT_COLUMNS] as string[];
/** For each column in order: whether its cells are free text to neutralise (csv-formula.ts). */
const IS_TEXT = REPORT_COLUMNS.map((column) => CSV_TEXT_COLUMNS.has(column));
const CSV_OPTIONS = {
  record_delimiter: 'windows',
  // Quote a lone CR or LF too, not only CRLF (off by default once record_delimiter is given).
  quote_record_delimiter: true,
  eof: true,
} as const;

/**
 * RFC 4180 CSV in UTF-8 (no byte order mark): a header row of the REPORT_COLUMNS names, CRLF
 * line ends, fields quoted when they hold a comma, a double quote, CR or LF (quotes doubled),
 * null written as an empty field. Text cells that would start a spreadsheet formula get a
 * leading `'` (csv-formula.ts). Rows only: the totals are in the JSON representation.
 */
export class CsvReportWriter implements ReportWriter {
  readonly contentType = 'text/csv; charset=utf-8; header=present';

  open(): string {
    return stringify([COLUMNS], CSV_OPTIONS);
  }

  rows(rows: TransactionDetailRowDto[]): string {
    // Records as arrays in column order: csv-stringify then skips its per-field key lookup.
    const records = rows.map((row) =>
      REPORT_COLUMNS.map((column, i) => {
        const value = row[column];
        return IS_TEXT[i] && typeof value === 'string' ? neutraliseFormula(value) : value;
      }),
    );
    return records.length === 0 ? '' : stringify(records, CSV_OPTIONS);
  }

  close(): string {
    return '';
  }
}
