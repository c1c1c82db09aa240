import { neutraliseFormula } from '../csv-formula.js';

/** How exported records are written: NDJSON (one JSON object a line) or CSV (RFC 4180). */
export type Format = 'ndjson' | 'csv';

type Value = string | number | boolean | null | object;

/**
 * A CSV field: null is an empty field, a string is always quoted (so "" stays an empty string,
 * not null) and a formula in it neutralised (csv-formula.ts), an array or object (the lines of a
 * sale) is its JSON text, quoted.
 */
function csvField(value: Value | undefined, decimalComma: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? neutraliseFormula(value) : JSON.stringify(value);
  // A decimal amount with a comma for a spreadsheet in a comma-decimal locale ("12,50").
  const shown = decimalComma && DECIMAL.test(text) ? text.replace('.', ',') : text;
  return `"${shown.replace(/"/g, '""')}"`;
}

const DECIMAL = /^-?\d+\.\d+$/;

/**
 * How CSV is written for a spreadsheet: `excel`, a UTF-8 byte order mark and `;` between fields
 * (what a spreadsheet in a comma-decimal locale opens as columns); `decimalComma`, decimal
 * amounts with `,`; `lines`, one row per sale line (cli/export.ts).
 */
export interface CsvStyle {
  excel?: boolean;
  decimalComma?: boolean;
  lines?: boolean;
}

export class RecordWriter {
  private columns?: string[];

  constructor(
    private readonly format: Format,
    /** false when appending to a file that already has its header row. */
    private header: boolean,
    /** The resource's fields in the API's order: the header of an export without records. */
    private readonly fields: string[] = [],
    private readonly style: CsvStyle = {},
  ) {}

  private get separator(): string {
    return this.style.excel ? ';' : ',';
  }

  /** The header row, after the byte order mark of an excel CSV (the file's first bytes). */
  private headerRow(columns: string[]): string {
    return (this.style.excel ? '\uFEFF' : '') + columns.join(this.separator) + '\r\n';
  }

  /** What ends the output: a CSV without records still gets its header row. */
  end(): string {
    if (this.format !== 'csv' || !this.header || this.fields.length === 0) return '';
    this.header = false;
    return this.headerRow(this.fields);
  }

  /** The text of a page of records, header row first when it is the first page. */
  page(records: Array<Record<string, unknown>>): string {
    if (this.format === 'ndjson') return records.map((r) => JSON.stringify(r) + '\n').join('');
    let text = '';
    for (const record of records) {
      this.columns ??= Object.keys(record);
      if (this.header) {
        text += this.headerRow(this.columns);
        this.header = false;
      }
      const comma = this.style.decimalComma === true;
      text +=
        this.columns.map((c) => csvField(record[c] as Value, comma)).join(this.separator) + '\r\n';
    }
    return text;
  }
}
