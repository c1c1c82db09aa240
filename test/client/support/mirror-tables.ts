import { loadSqliteDriver } from '../../../packages/client/src/mirror/sqlite-driver';
import { recordOf, SALE_LINES, SALES, TABLES } from '../../../packages/client/src/mirror/schema';

type Row = Record<string, unknown>;

/**
 * A mirror file's tables read back as the API's records (the README's column mapping, each
 * row's `extra` merged back), per resource in id order, with each sale's lines: to compare with
 * the API's lists row for row.
 */
export async function mirrorTables(file: string): Promise<Record<string, unknown[]>> {
  const Driver = await loadSqliteDriver();
  const db = new Driver(file, { readonly: true, fileMustExist: true });
  try {
    const result: Record<string, unknown[]> = {};
    for (const table of TABLES) {
      const rows = db.prepare(`SELECT * FROM ${table.table} ORDER BY id`).safeIntegers(true).all();
      result[table.resource] = (rows as Row[]).map((row) => {
        const record = recordOf(table.columns, row);
        if (table !== SALES) return record;
        const lines = db
          .prepare('SELECT * FROM sale_lines WHERE sale_id = ? ORDER BY line_no')
          .safeIntegers(true)
          .all(row.id) as Row[];
        return { ...record, lines: lines.map((line) => recordOf(SALE_LINES, line)) };
      });
    }
    return result;
  } finally {
    db.close();
  }
}

/** Runs one statement on a mirror file behind the mirror's back (a tampered copy). */
export async function tamper(file: string, sql: string, ...parameters: unknown[]): Promise<void> {
  const Driver = await loadSqliteDriver();
  const db = new Driver(file, { fileMustExist: true });
  try {
    db.prepare(sql).run(...parameters);
  } finally {
    db.close();
  }
}
