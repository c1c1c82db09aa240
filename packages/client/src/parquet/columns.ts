/**
 * The Parquet columns of an export (`pos-read export … --format parquet`): each API field with
 * the Parquet type an analyst's tool reads it as, generated from the record schemas of
 * docs/openapi.json (src/generated/mirror-columns.ts, each field's `value`). Money and quantities
 * are DECIMALs at the back-office column's precision and scale (exact, never a float), ids INT64,
 * `businessDate` a DATE, the shop-local date-times (`soldAt`) TIMESTAMPs without a zone, the
 * instants (`soldAtUtc`) TIMESTAMPs adjusted to UTC. The generator refuses a field it cannot type;
 * a field a newer service sends that this client's document lacks is written as text
 * (`columnsOf`), so nothing the server says is dropped.
 */
import type { GeneratedColumn } from '../generated/mirror-columns.js';
import { SALE_LINES, TABLES } from '../mirror/schema.js';

/** How a field is written; `scale`/`precision` for a DECIMAL. */
export type ParquetKind =
  | { kind: 'id' | 'int' | 'date' | 'local-time' | 'instant' | 'text' }
  | { kind: 'decimal'; precision: number; scale: number };

export interface ParquetColumn {
  field: string;
  type: ParquetKind;
  nullable: boolean;
}

/** A generated column's Parquet column (a decimal's precision is there for every exported record). */
function parquetColumn({ field, value, nullable }: GeneratedColumn): ParquetColumn {
  if (value.kind !== 'decimal') return { field, type: { kind: value.kind }, nullable };
  if (value.precision === null) throw new Error(`${field}: a decimal of unknown precision`);
  return { field, type: { ...value, precision: value.precision }, nullable };
}

const text = (field: string): ParquetColumn => ({ field, type: { kind: 'text' }, nullable: true });

/**
 * The tables an export writes, in the API's field order: each exported resource's (the mirror's
 * table names) and `sale_lines`, the sales' lines, each keyed by its sale's id.
 */
export const PARQUET_TABLES: Readonly<Record<string, readonly ParquetColumn[]>> = {
  ...Object.fromEntries(TABLES.map((t) => [t.table, t.columns.map(parquetColumn)])),
  sale_lines: [
    { field: 'saleId', type: { kind: 'id' }, nullable: false },
    ...SALE_LINES.map(parquetColumn),
  ],
};

/** A Parquet schema element (hyparquet-writer's SchemaElement, the fields this module sets). */
export interface SchemaElement {
  name: string;
  type?: 'INT32' | 'INT64' | 'BYTE_ARRAY';
  repetition_type?: 'REQUIRED' | 'OPTIONAL';
  num_children?: number;
  converted_type?: 'DECIMAL' | 'DATE' | 'UTF8';
  scale?: number;
  precision?: number;
  logical_type?:
    | { type: 'DECIMAL'; scale: number; precision: number }
    | { type: 'DATE' }
    | { type: 'STRING' }
    | { type: 'INT'; bitWidth: 32; isSigned: true }
    | { type: 'TIMESTAMP'; isAdjustedToUTC: boolean; unit: 'MILLIS' };
}

/** The schema element of a column. */
export function schemaElement(c: ParquetColumn): SchemaElement {
  const repetition_type = c.nullable ? 'OPTIONAL' : 'REQUIRED';
  const name = c.field;
  switch (c.type.kind) {
    case 'id':
      return { name, type: 'INT64', repetition_type };
    case 'int':
      return { name, type: 'INT32', repetition_type };
    case 'decimal': {
      const { precision, scale } = c.type;
      // A DECIMAL of up to 9 digits fits INT32, up to 18 INT64 (the Parquet format's rule).
      const type = precision <= 9 ? 'INT32' : 'INT64';
      return {
        name,
        type,
        repetition_type,
        converted_type: 'DECIMAL',
        scale,
        precision,
        logical_type: { type: 'DECIMAL', scale, precision },
      };
    }
    case 'date':
      return {
        name,
        type: 'INT32',
        repetition_type,
        converted_type: 'DATE',
        logical_type: { type: 'DATE' },
      };
    case 'local-time':
    case 'instant':
      return {
        name,
        type: 'INT64',
        repetition_type,
        logical_type: {
          type: 'TIMESTAMP',
          isAdjustedToUTC: c.type.kind === 'instant',
          unit: 'MILLIS',
        },
      };
    case 'text':
      return {
        name,
        type: 'BYTE_ARRAY',
        repetition_type,
        converted_type: 'UTF8',
        logical_type: { type: 'STRING' },
      };
  }
}

const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?$/;
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const INT64_MAX = 2n ** 63n - 1n;

/** Thrown when a record's value does not fit its column: the export stops, nothing half-written. */
export class ParquetValueError extends Error {
  override name = 'ParquetValueError';
}

/** A value's text: a string as it is, anything else as its JSON. */
const textOf = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

const refuse = (c: ParquetColumn, value: unknown, why: string): never => {
  throw new ParquetValueError(`${c.field} ${JSON.stringify(value)}: ${why}`);
};

/**
 * A field's value as the Parquet writer takes it: a DECIMAL as its unscaled BigInt (`"12.50"` →
 * 1250n at scale 2, exact), an id as a BigInt, a date as days since 1970-01-01, a date-time as
 * milliseconds (a local one read as if it were UTC: the wall clock, no zone), text as text.
 */
export function parquetValue(c: ParquetColumn, value: unknown): bigint | number | string | null {
  if (value === null || value === undefined) {
    return c.nullable ? null : refuse(c, value, 'missing in a column that is never null');
  }
  switch (c.type.kind) {
    case 'id': {
      const digits = textOf(value);
      if (!/^\d+$/.test(digits)) return refuse(c, value, 'not an id');
      const n = BigInt(digits);
      return n > INT64_MAX ? refuse(c, value, 'above the INT64 range') : n;
    }
    case 'int':
      return Number.isInteger(value) ? (value as number) : refuse(c, value, 'not an integer');
    case 'decimal': {
      const match = DECIMAL_TEXT.exec(textOf(value));
      if (!match) return refuse(c, value, 'not a decimal');
      const [, sign, whole, fraction = ''] = match;
      const scale = c.type.scale;
      if (fraction.length > scale) return refuse(c, value, `more than ${scale} decimals`);
      const unscaled = BigInt(`${sign}${whole}${fraction.padEnd(scale, '0')}`);
      const limit = 10n ** BigInt(c.type.precision);
      return unscaled >= limit || -unscaled >= limit
        ? refuse(c, value, `more than ${c.type.precision} digits`)
        : unscaled;
    }
    case 'date': {
      const match = DATE_TEXT.exec(textOf(value));
      if (!match) return refuse(c, value, 'not a date');
      return Date.UTC(+match[1], +match[2] - 1, +match[3]) / 86_400_000;
    }
    case 'local-time': {
      const match = LOCAL_TIME.exec(textOf(value));
      if (!match) return refuse(c, value, 'not a local date-time');
      const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = match;
      return BigInt(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, +ms.padEnd(3, '0')));
    }
    case 'instant': {
      const ms = typeof value === 'string' && value.endsWith('Z') ? Date.parse(value) : NaN;
      return Number.isNaN(ms) ? refuse(c, value, 'not an RFC 3339 UTC instant') : BigInt(ms);
    }
    case 'text':
      return textOf(value);
  }
}

/** The kinds whose values repeat within a partition (amounts, rates, the day), worth a memo. */
const REPEATING = new Set<ParquetKind['kind']>(['decimal', 'date']);

/**
 * A column's values as the Parquet writer takes them (`parquetValue` each). A DECIMAL's or a
 * date's text is converted once a partition: the same amounts and the same day come again and
 * again, and a lookup costs less than a parse.
 */
export function parquetValues(
  c: ParquetColumn,
  values: readonly unknown[],
): Array<bigint | number | string | null> {
  if (!REPEATING.has(c.type.kind)) return values.map((value) => parquetValue(c, value));
  const memo = new Map<unknown, bigint | number | string | null>();
  return values.map((value) => {
    let converted = memo.get(value);
    if (converted === undefined) {
      converted = parquetValue(c, value);
      if (typeof value === 'string') memo.set(value, converted);
    }
    return converted;
  });
}

/**
 * The columns of a table's records: the declared ones, then any field of the records the
 * declaration lacks, as nullable text (in the order the records first show them).
 */
export function columnsOf(
  declared: readonly ParquetColumn[],
  records: ReadonlyArray<Record<string, unknown>>,
  skip: readonly string[] = [],
): ParquetColumn[] {
  const known = new Set([...declared.map((c) => c.field), ...skip]);
  const extra: ParquetColumn[] = [];
  for (const record of records) {
    for (const field of Object.keys(record)) {
      if (known.has(field)) continue;
      known.add(field);
      extra.push(text(field));
    }
  }
  return [...declared, ...extra];
}
