import { canonicalJson, type Json } from './jcs.js';
import { type Column, EXTRA, sqlType, TABLE_COLUMNS, valueOf } from './schema.js';
import type { Dialect, SqlRunner } from './store.js';

/** A table of the mirror, its key and its columns (`extra` aside). */
interface TableColumns {
  table: string;
  key: string[];
  columns: readonly Column[];
}

/** Rows read at a time while moving fields out of `extra`. */
const BATCH = 1000;

/**
 * Whether a table of this schema is missing, or an existing one lacks a column of it (`extra`
 * included): a mirror of the current version made by a client generated before the API gained a
 * resource or a field. Such a mirror is upgraded like an older one (its missing tables created,
 * its columns added), so a resource or a field reaches every copy by regeneration alone.
 */
export async function lacksColumns(runner: SqlRunner, d: Dialect): Promise<boolean> {
  for (const { table, columns } of TABLE_COLUMNS) {
    const present = new Set(
      (await runner.all(d.columnsSql, [table])).map((row) => String(row.name)),
    );
    if (present.size === 0) return true;
    if ([...columns.map((c) => c.column), EXTRA].some((c) => !present.has(c))) return true;
  }
  return false;
}

/**
 * Adds to each existing table the columns of this schema it lacks, nullable (its rows of before
 * may have no value), `extra` included (a version 1 file); returns the tables that existed.
 */
export async function addMissingColumns(tx: SqlRunner, d: Dialect): Promise<TableColumns[]> {
  const existing: TableColumns[] = [];
  for (const { table, key, columns } of TABLE_COLUMNS) {
    const present = new Set((await tx.all(d.columnsSql, [table])).map((row) => String(row.name)));
    // A table the older schema did not have is created whole by its CREATE statement.
    if (present.size === 0) continue;
    const missing = columns.filter((c) => !present.has(c.column));
    for (const c of missing) {
      await tx.run(`ALTER TABLE ${table} ADD COLUMN ${c.column} ${sqlType(d, c, true)}`);
    }
    if (!present.has(EXTRA))
      await tx.run(`ALTER TABLE ${table} ADD COLUMN ${EXTRA} ${d.types.text}`);
    existing.push({ table, key, columns });
  }
  return existing;
}

/**
 * The fields a row kept in `extra` (a version 2 mirror keeps there every field it had no column
 * for) moved into their columns, by key order, a batch at a time; what is left stays in
 * `extra`, NULL when nothing is. A row's record rebuilt after is the same as before. Every
 * column is looked for, not only those added now: a MySQL upgrade killed after its ALTERs
 * finds its columns there and still empty.
 */
export async function moveFromExtra(tx: SqlRunner, { table, key, columns }: TableColumns) {
  const keys = key.join(', ');
  const after =
    key.length === 1 ? `${key[0]} > ?` : `(${keys}) > (${key.map(() => '?').join(', ')})`;
  const where = key.map((k) => `${k} = ?`).join(' AND ');
  let last: unknown[] | undefined;
  for (;;) {
    const rows = await tx.all(
      `SELECT ${keys}, ${EXTRA} FROM ${table} WHERE ${EXTRA} IS NOT NULL` +
        `${last ? ` AND ${after}` : ''} ORDER BY ${keys} LIMIT ${BATCH}`,
      last ?? [],
    );
    for (const row of rows) {
      const extra = JSON.parse(String(row[EXTRA])) as Record<string, Json>;
      const moved = columns.filter((c) => Object.hasOwn(extra, c.field));
      if (moved.length === 0) continue;
      const rest = Object.fromEntries(
        Object.entries(extra).filter(([field]) => !moved.some((c) => c.field === field)),
      );
      const left = Object.keys(rest).length > 0 ? canonicalJson(rest) : null;
      const set = [...moved.map((c) => c.column), EXTRA].map((c) => `${c} = ?`).join(', ');
      await tx.run(`UPDATE ${table} SET ${set} WHERE ${where}`, [
        ...moved.map((c) => valueOf(c, extra[c.field])),
        left,
        ...key.map((k) => row[k]),
      ]);
    }
    if (rows.length < BATCH) return;
    last = key.map((k) => rows[rows.length - 1][k]);
  }
}
