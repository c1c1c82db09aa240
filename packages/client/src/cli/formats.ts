import { neutraliseFormula } from '../csv-formula.js';

/** How exported records are written: NDJSON (one JSON object a line) or CSV (RFC 4180). */
export type Format = 'ndjson' | 'csv';

type Value = string | number | boolean | null | object;

/**
 * A CSV field: null is an empty field, a string is always quoted (so "" stays an empty string,
 * not null) and a formula in it neutralised (csv-formula.ts), an array or object (the lines of a
 * sale) is its JSON text, quoted.
 */
function csvField(value: Value | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? neutraliseFormula(value) : JSON.stringify(value);
  return `"${text.replace(/"/g, '""')}"`;
}

export class RecordWriter {
  private columns?: string[];

  constructor(
    private readonly format: Format,
    /** false when appending to a file that already has its header row. */
    private header: boolean,
    /** The resource's fields in the API's order: the header of an export without records. */
    private readonly fields: string[] = [],
  ) {}

  /** What ends the output: a CSV without records still gets its header row. */
  end(): string {
    if (this.format !== 'csv' || !this.header || this.fields.length === 0) return '';
    this.header = false;
    return this.fields.join(',') + '\r\n';
  }

  /** The text of a page of records, header row first when it is the first page. */
  page(records: Array<Record<string, unknown>>): string {
    if (this.format === 'ndjson') return records.map((r) => JSON.stringify(r) + '\n').join('');
    let text = '';
    for (const record of records) {
      this.columns ??= Object.keys(record);
      if (this.header) {
        text += this.columns.join(',') + '\r\n';
        this.header = false;
      }
      text += this.columns.map((c) => csvField(record[c] as Value)).join(',') + '\r\n';
    }
    return text;
  }
}
