import { type GeneratedColumn, MIRROR_COLUMNS } from '../generated/mirror-columns.js';
import { canonicalJson, type Json } from './jcs.js';
import type { Dialect } from './store.js';

/**
 * How an API field is kept, generated from the record schemas of docs/openapi.json
 * (`npm run client:generate`): `id` an API identifier (a decimal string in JSON) as an INTEGER,
 * `int` a JSON number as an INTEGER, `text` a string (decimal amounts, shop-local date-times and
 * RFC 3339 instants included) as TEXT; `nullable` when the API may return null or leave it out.
 */
export type Column = GeneratedColumn;

type Resource = keyof typeof MIRROR_COLUMNS;

export interface Table {
  /** The resource's name in the API path and in the CLI. */
  resource: string;
  /** The client's property for it (`cashMovements`). */
  property: string;
  table: string;
  /** The field whose date (its first 10 characters, shop-local) is the record's day. */
  dayField: string;
  columns: readonly Column[];
  /** Its fields that hold lists of records, kept in tables of their own (a sale's `lines`). */
  nested: readonly string[];
}

/**
 * A resource's table (the resource's name in snake_case), from the generated columns: the field
 * that dates a row and the columns are the document's (the list's `x-dated-by`, the record's
 * schema), so a field the API adds becomes a column by regeneration alone (and, until then, is
 * kept in `extra`).
 */
const mirrored = (resource: Resource): Table => ({
  resource,
  property: MIRROR_COLUMNS[resource].property,
  table: resource.replace(/-/g, '_'),
  dayField: MIRROR_COLUMNS[resource].dayField,
  columns: MIRROR_COLUMNS[resource].columns,
  nested: Object.keys(MIRROR_COLUMNS[resource].nested),
});

/**
 * The tables a feed fills and the digests check: every resource the document gives a feed and a
 * digest (sales, payments, cash movements), so a resource the API gains is mirrored, verified and
 * exported by regeneration alone.
 */
export const TABLES: readonly Table[] = (Object.keys(MIRROR_COLUMNS) as Resource[])
  .filter((r) =>
    ['feed', 'digest'].every((m) => (MIRROR_COLUMNS[r].methods as readonly string[]).includes(m)),
  )
  .map(mirrored);

/** The table of a resource with a feed and a digest. */
export const tableOf = (resource: string): Table => {
  const table = TABLES.find((t) => t.resource === resource);
  if (!table) throw new Error(`The document gives ${resource} no feed and digest to mirror.`);
  return table;
};

/** The sales: their `lines` are kept in sale_lines. */
export const SALES = tableOf('sales');
/**
 * The drawer sessions: a list only (no feed, no digest), all read on the first pass, then the
 * window's and the open ones before it re-read on each pass, replaced page by page; verify
 * compares them with the list (sessions.ts; docs/sync.md, "From the till to your database").
 */
export const CASH_DRAWER_SESSIONS = mirrored('cash-drawer-sessions');

/** A sale's `lines`, one row each in `sale_lines`, keyed by the sale's id and the line number. */
export const SALE_LINES: readonly Column[] = MIRROR_COLUMNS.sales.nested.lines;

/** The day column of a table (`sold_at`, ...). */
export const dayColumn = (table: Table): string =>
  table.columns.find((c) => c.field === table.dayField)?.column ?? '';

/** The columns of the shop-and-day index (MySQL indexes them as VARCHAR). */
const KEYED = new Set(['shop_code', ...[...TABLES, CASH_DRAWER_SESSIONS].map(dayColumn)]);

/** A column's type; NOT NULL unless it is nullable, or `added` to a table of an older mirror. */
export const sqlType = (d: Dialect, c: Column, added = false) => {
  const type =
    c.type === 'text' ? (KEYED.has(c.column) ? d.types.keyText : d.types.text) : d.types[c.type];
  return `${type}${c.nullable || added ? '' : ' NOT NULL'}`;
};

function columnsDdl(d: Dialect, columns: readonly Column[]): string {
  return columns.map((c) => `  ${c.column} ${sqlType(d, c)}`).join(',\n');
}

/**
 * The mirror's schema (`mirror_state.schema_version`). 1: the known fields only; 2: each table's
 * `extra` column, the fields the client does not know (decision 24.8); 3: the columns generated
 * from the OpenAPI document (issue 42's business dates and instants among them) and the table
 * cash_drawer_sessions. An older one is upgraded when the mirror opens it for writing
 * (mirror-database.ts); the tables a version had: `tablesOf`.
 */
export const SCHEMA_VERSION = 3;

/**
 * The column of every mirrored table (sale_lines included) that keeps the record's fields this
 * client has no column for, as one canonical JSON object, or NULL when there are none: the
 * record rebuilt from a row is then the record as received, whatever fields the server added.
 */
export const EXTRA = 'extra';

/** Every mirrored table's name, sale_lines after sales (the summary's order). */
export const TABLE_NAMES = [
  SALES.table,
  'sale_lines',
  ...TABLES.filter((t) => t !== SALES).map((t) => t.table),
  CASH_DRAWER_SESSIONS.table,
];

/** The tables a mirror of schema 3 was created with; one the API gained since is added at upgrade. */
const SCHEMA_3_TABLES = [
  'sales',
  'sale_lines',
  'payments',
  'cash_movements',
  'cash_drawer_sessions',
];

/**
 * The tables a mirror of schema `version` has for certain (cash_drawer_sessions from version 3):
 * one missing is damage. A table of a resource the API gained later is created when the mirror
 * next opens for writing (upgrade.ts, `lacksColumns`).
 */
export const tablesOf = (version: number) =>
  version >= 3 ? SCHEMA_3_TABLES : SCHEMA_3_TABLES.filter((t) => t !== CASH_DRAWER_SESSIONS.table);

/** Each table's columns and key, sale_lines included, `extra` last: what an upgrade completes. */
export const TABLE_COLUMNS: Array<{ table: string; key: string[]; columns: readonly Column[] }> = [
  ...[...TABLES, CASH_DRAWER_SESSIONS].map((t) => ({
    table: t.table,
    key: ['id'],
    columns: t.columns,
  })),
  { table: 'sale_lines', key: ['sale_id', 'line_no'], columns: SALE_LINES },
];

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
  for (const t of [...TABLES, CASH_DRAWER_SESSIONS]) {
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

/** A field's value as its column takes it: ids as BigInt (beyond 2^53), absent as NULL. */
export function valueOf(c: Column, value: Json | undefined): unknown {
  if (value === null || value === undefined) return null;
  return c.type === 'id' ? BigInt(value as string) : value;
}

/**
 * The values of a record's columns, in `columns` order (ids as BigInt: beyond 2^53), then its
 * `extra`: the canonical JSON of the fields that are neither a column nor `nested` (a sale's
 * `lines`, kept in their own table), or null when there are none.
 */
export function rowOf(
  columns: readonly Column[],
  record: Record<string, Json>,
  nested: string[] = [],
): unknown[] {
  const row: unknown[] = new Array(columns.length + 1);
  for (let i = 0; i < columns.length; i++) row[i] = valueOf(columns[i], record[columns[i].field]);
  const known = knownFields(columns, nested);
  let fields = 0;
  for (const field in record) if (Object.hasOwn(record, field) && known.has(field)) fields++;
  // Only a record with fields beyond the known ones (a newer server's) pays for finding them.
  const unknown =
    fields === Object.keys(record).length
      ? null
      : // fromEntries defines each member, so even a field named "__proto__" stays a field.
        Object.fromEntries(Object.entries(record).filter(([field]) => !known.has(field)));
  row[columns.length] = unknown ? canonicalJson(unknown) : null;
  return row;
}

/** The fields of `columns` and `nested`, kept per column list (a history holds many rows). */
const knownSets = new WeakMap<readonly Column[], Map<string, ReadonlySet<string>>>();
function knownFields(columns: readonly Column[], nested: string[]): ReadonlySet<string> {
  let byNested = knownSets.get(columns);
  if (!byNested) knownSets.set(columns, (byNested = new Map<string, ReadonlySet<string>>()));
  const key = nested.join('\u0000');
  let known = byNested.get(key);
  if (!known) byNested.set(key, (known = new Set([...columns.map((c) => c.field), ...nested])));
  return known;
}

/**
 * The API's record back from a row read with safe integers (every INTEGER a BigInt): its
 * columns, and the fields of its `extra`. A column the row lacks (an older file read without
 * upgrade, by verify) is left out: its field, if the file kept it, is in `extra`.
 */
export function recordOf(
  columns: readonly Column[],
  row: Record<string, unknown>,
): Record<string, Json> {
  const record: Record<string, Json> = {};
  for (const c of columns) {
    if (!(c.column in row)) continue;
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
