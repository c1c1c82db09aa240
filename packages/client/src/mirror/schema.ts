import { canonicalJson, type Json } from './jcs.js';
import type { Dialect } from './store.js';

/**
 * How an API field is kept: `id` an API identifier (a decimal string in JSON) as an INTEGER,
 * `int` a JSON number as an INTEGER, `text` a string (decimal amounts and shop-local date-times
 * included) as TEXT; `nullable` when the API may return null.
 */
interface Column {
  field: string;
  column: string;
  type: 'id' | 'int' | 'text';
  nullable?: boolean;
}

export interface Table {
  /** The resource's name in the API path and in the CLI. */
  resource: 'sales' | 'payments' | 'cash-movements';
  table: string;
  /** The field whose date (its first 10 characters, shop-local) is the record's day. */
  dayField: string;
  columns: Column[];
}

const id = (field: string, column: string, nullable = false): Column => ({
  field,
  column,
  type: 'id',
  nullable,
});
const text = (field: string, column: string, nullable = false): Column => ({
  field,
  column,
  type: 'text',
  nullable,
});

export const SALES: Table = {
  resource: 'sales',
  table: 'sales',
  dayField: 'soldAt',
  columns: [
    id('id', 'id'),
    text('shopCode', 'shop_code'),
    text('registerCode', 'register_code'),
    text('ticketNumber', 'ticket_number'),
    text('kind', 'kind'),
    text('status', 'status'),
    text('businessDate', 'business_date'),
    text('soldAt', 'sold_at'),
    text('currency', 'currency'),
    text('totalNet', 'total_net'),
    text('totalTax', 'total_tax'),
    text('totalDiscount', 'total_discount'),
    text('totalGross', 'total_gross'),
    text('employeeCode', 'employee_code', true),
    text('customerCode', 'customer_code', true),
    id('originalSaleId', 'original_sale_id', true),
  ],
};

/** A sale's `lines`, one row each, keyed by the sale's id and the line number. */
export const SALE_LINES: Column[] = [
  { field: 'lineNo', column: 'line_no', type: 'int' },
  text('itemCode', 'item_code'),
  text('description', 'description'),
  text('quantity', 'quantity'),
  text('unitPrice', 'unit_price'),
  text('discount', 'discount'),
  text('taxRate', 'tax_rate'),
  text('net', 'net'),
  text('tax', 'tax'),
  text('gross', 'gross'),
];

export const PAYMENTS: Table = {
  resource: 'payments',
  table: 'payments',
  dayField: 'paidAt',
  columns: [
    id('id', 'id'),
    id('saleId', 'sale_id'),
    text('shopCode', 'shop_code'),
    text('registerCode', 'register_code'),
    text('paidAt', 'paid_at'),
    text('method', 'method'),
    text('amount', 'amount'),
    text('currency', 'currency'),
    text('cardBrand', 'card_brand', true),
    text('reference', 'reference', true),
  ],
};

export const CASH_MOVEMENTS: Table = {
  resource: 'cash-movements',
  table: 'cash_movements',
  dayField: 'movedAt',
  columns: [
    id('id', 'id'),
    text('shopCode', 'shop_code'),
    text('registerCode', 'register_code'),
    text('movedAt', 'moved_at'),
    text('kind', 'kind'),
    text('amount', 'amount'),
    text('currency', 'currency'),
    text('reason', 'reason', true),
    text('employeeCode', 'employee_code', true),
    id('saleId', 'sale_id', true),
  ],
};

export const TABLES = [SALES, PAYMENTS, CASH_MOVEMENTS];

/** The day column of a table (`sold_at`, ...). */
export const dayColumn = (table: Table): string =>
  table.columns.find((c) => c.field === table.dayField)?.column ?? '';

/** The columns of the shop-and-day index (MySQL indexes them as VARCHAR). */
const KEYED = new Set(['shop_code', ...TABLES.map(dayColumn)]);

const sqlType = (d: Dialect, c: Column) => {
  const type =
    c.type === 'text' ? (KEYED.has(c.column) ? d.types.keyText : d.types.text) : d.types[c.type];
  return `${type}${c.nullable ? '' : ' NOT NULL'}`;
};

function columnsDdl(d: Dialect, columns: Column[]): string {
  return columns.map((c) => `  ${c.column} ${sqlType(d, c)}`).join(',\n');
}

/**
 * The mirror's schema (`mirror_state.schema_version`). 1: the known fields only; 2: each table's
 * `extra` column, the fields the client does not know (decision 24.8). A version 1 file is
 * upgraded when the mirror opens it for writing (mirror-file.ts).
 */
export const SCHEMA_VERSION = 2;

/**
 * The column of every mirrored table (sale_lines included) that keeps the record's fields this
 * client has no column for, as one canonical JSON object, or NULL when there are none: the
 * record rebuilt from a row is then the record as received, whatever fields the server added.
 */
export const EXTRA = 'extra';

/** Every mirrored table's name, sale_lines included. */
export const TABLE_NAMES = [...TABLES.map((t) => t.table), 'sale_lines'];

/** The mirror's state table: created first, so a database it is in is known to be a mirror. */
export function stateDdl(d: Dialect): string {
  return (
    `CREATE TABLE IF NOT EXISTS mirror_state (\n  ${d.quote('key')} ${d.types.keyText} PRIMARY KEY,\n` +
    `  ${d.quote('value')} ${d.types.text} NOT NULL\n)${d.tableOptions}`
  );
}

/** The statements that create the mirrored tables (IF NOT EXISTS: a creation may resume). */
export function schemaStatements(d: Dialect): string[] {
  const statements: string[] = [];
  for (const t of TABLES) {
    const index = d.dayIndex(t.table, dayColumn(t));
    const inline = index.inline ? `,\n  ${index.inline}` : '';
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${t.table} (\n${columnsDdl(d, t.columns)},\n  ${EXTRA} ${d.types.text},\n` +
        `  PRIMARY KEY (id)${inline}\n)${d.tableOptions}`,
    );
    if (index.statement) statements.push(index.statement.replace('INDEX', 'INDEX IF NOT EXISTS'));
  }
  statements.push(
    `CREATE TABLE IF NOT EXISTS sale_lines (\n  sale_id ${d.types.id} NOT NULL REFERENCES sales (id) ON DELETE CASCADE,\n` +
      `${columnsDdl(d, SALE_LINES)},\n  ${EXTRA} ${d.types.text},\n  PRIMARY KEY (sale_id, line_no)\n)${d.tableOptions}`,
  );
  return statements;
}

/**
 * The values of a record's columns, in `columns` order (ids as BigInt: beyond 2^53), then its
 * `extra`: the canonical JSON of the fields that are neither a column nor `nested` (a sale's
 * `lines`, kept in their own table), or null when there are none.
 */
export function rowOf(
  columns: Column[],
  record: Record<string, Json>,
  nested: string[] = [],
): unknown[] {
  const values = columns.map((c) => {
    const value = record[c.field];
    if (value === null || value === undefined) return null;
    return c.type === 'id' ? BigInt(value as string) : value;
  });
  const known = new Set([...columns.map((c) => c.field), ...nested]);
  // fromEntries defines each member, so even a field named "__proto__" stays a field.
  const unknown = Object.fromEntries(Object.entries(record).filter(([field]) => !known.has(field)));
  const extra = Object.keys(unknown).length > 0 ? canonicalJson(unknown) : null;
  return [...values, extra];
}

/**
 * The API's record back from a row read with safe integers (every INTEGER a BigInt): its
 * columns, and the fields of its `extra` (absent from a version 1 file read without upgrade).
 */
export function recordOf(columns: Column[], row: Record<string, unknown>): Record<string, Json> {
  const record: Record<string, Json> = {};
  for (const c of columns) {
    const value = row[c.column];
    if (value === null || value === undefined) record[c.field] = null;
    else if (c.type === 'id') record[c.field] = (value as bigint).toString();
    else if (c.type === 'int') record[c.field] = Number(value);
    else record[c.field] = value as Json;
  }
  const extra = row[EXTRA];
  if (typeof extra !== 'string') return record;
  // Spread defines each member, so even a field named "__proto__" stays a field.
  return { ...record, ...(JSON.parse(extra) as Record<string, Json>) };
}
