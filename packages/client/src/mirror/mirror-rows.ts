import { dayChecksum, type Json } from './jcs.js';
import {
  dayColumn,
  EXTRA,
  recordOf,
  rowOf,
  SALE_LINES,
  SALES,
  type Table,
  TABLES,
} from './schema.js';
import type { Database, Statement } from './sqlite-driver.js';

type ApiRecord = Record<string, Json>;

/** Count and checksum of one day of the mirror's own rows (the digest's published rule). */
export interface LocalDay {
  count: number;
  checksum: string;
}

const EMPTY = dayChecksum([]);

/** The statements that write rows, prepared on the first write (verify never writes). */
interface Writes {
  upserts: Map<Table, Statement>;
  insertLine: Statement;
  deleteLines: Statement;
  setState: Statement;
}

const insertInto = (db: Database, verb: string, table: string, columns: string[]) =>
  db.prepare(
    `${verb} INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );

/** The rows of the mirror: pages and days written in one transaction each, days read back. */
export class MirrorRows {
  private prepared?: Writes;

  constructor(private readonly db: Database) {}

  /**
   * Prepared when first needed, not in the constructor: `verify` may read a version 1 file,
   * which it does not upgrade (it never writes), and whose tables have no `extra` to write.
   */
  private get writes(): Writes {
    if (this.prepared) return this.prepared;
    const db = this.db;
    const upserts = new Map<Table, Statement>();
    for (const t of TABLES) {
      upserts.set(
        t,
        insertInto(db, 'INSERT OR REPLACE', t.table, [...t.columns.map((c) => c.column), EXTRA]),
      );
    }
    this.prepared = {
      upserts,
      insertLine: insertInto(db, 'INSERT', 'sale_lines', [
        'sale_id',
        ...SALE_LINES.map((c) => c.column),
        EXTRA,
      ]),
      deleteLines: db.prepare('DELETE FROM sale_lines WHERE sale_id = ?'),
      setState: db.prepare('INSERT OR REPLACE INTO mirror_state (key, value) VALUES (?, ?)'),
    };
    return this.prepared;
  }

  private upsert(table: Table, record: ApiRecord): void {
    const { upserts, deleteLines, insertLine } = this.writes;
    const row = rowOf(table.columns, record, table === SALES ? ['lines'] : []);
    (upserts.get(table) as Statement).run(...row);
    if (table !== SALES) return;
    deleteLines.run(row[0]);
    for (const line of (record.lines ?? []) as ApiRecord[]) {
      insertLine.run(row[0], ...rowOf(SALE_LINES, line));
    }
  }

  /** A feed's page and the cursor after it, in one transaction: a crash keeps both or neither. */
  writePage(table: Table, records: ApiRecord[], cursorKey: string, cursor: string): void {
    this.db.transaction(() => {
      for (const record of records) this.upsert(table, record);
      this.writes.setState.run(cursorKey, cursor);
    })();
  }

  /**
   * A day re-read from the list replaces the shop's rows of that day in one transaction: rows
   * the server no longer has disappear, the others take its values. `keep`: ids a feed wrote
   * while the day was being read, which the list may have missed.
   */
  replaceDay(table: Table, shop: string, day: string, records: ApiRecord[], keep: Set<string>) {
    const where = `shop_code = ? AND substr(${dayColumn(table)}, 1, 10) = ?`;
    this.db.transaction(() => {
      const ids = this.db
        .prepare(`SELECT id FROM ${table.table} WHERE ${where}`)
        .pluck()
        .safeIntegers(true)
        .all(shop, day) as bigint[];
      const fresh = new Set(records.map((r) => r.id as string));
      for (const id of ids) {
        if (fresh.has(String(id)) || keep.has(String(id))) continue;
        this.db.prepare(`DELETE FROM ${table.table} WHERE id = ?`).run(id);
        if (table === SALES) this.writes.deleteLines.run(id);
      }
      for (const record of records) this.upsert(table, record);
    })();
  }

  /** Each day's count and checksum of one shop's rows, from (inclusive) to (exclusive). */
  localDays(table: Table, shop: string, from: string, to: string): Map<string, LocalDay> {
    const days = new Map<string, LocalDay>();
    let current: { day: string; records: ApiRecord[] } | undefined;
    const close = () => {
      if (current) {
        const { day, records } = current;
        days.set(day, { count: records.length, checksum: dayChecksum(records) });
      }
    };
    for (const { day, record } of this.records(table, shop, from, to)) {
      if (current?.day !== day) {
        close();
        current = { day, records: [] };
      }
      current.records.push(record);
    }
    close();
    return days;
  }

  /** The API's records of one shop's days, back from the rows, by day then numeric id. */
  private *records(table: Table, shop: string, from: string, to: string) {
    const day = `substr(${dayColumn(table)}, 1, 10)`;
    const where = `shop_code = ? AND ${day} >= ? AND ${day} < ?`;
    const rows = this.db
      .prepare(`SELECT *, ${day} AS day_ FROM ${table.table} WHERE ${where} ORDER BY day_, id`)
      .safeIntegers(true)
      .iterate(shop, from, to) as IterableIterator<Record<string, unknown>>;
    const lines = table === SALES ? this.linesByDay(where, shop, from, to) : undefined;
    for (const row of rows) {
      const record = recordOf(table.columns, row);
      if (lines) record.lines = lines.get(record.id as string) ?? [];
      yield { day: row.day_ as string, record };
    }
  }

  private linesByDay(where: string, shop: string, from: string, to: string) {
    const rows = this.db
      .prepare(
        `SELECT l.* FROM sale_lines l JOIN sales s ON s.id = l.sale_id ` +
          `WHERE ${where.replace(/shop_code|sold_at/g, (c) => `s.${c}`)} ORDER BY l.sale_id, l.line_no`,
      )
      .safeIntegers(true)
      .all(shop, from, to) as Array<Record<string, unknown>>;
    const bySale = new Map<string, ApiRecord[]>();
    for (const row of rows) {
      const id = String(row.sale_id);
      const list = bySale.get(id) ?? [];
      list.push(recordOf(SALE_LINES, row));
      bySale.set(id, list);
    }
    return bySale;
  }

  /** Rows per table, for the summary. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const name of ['sales', 'sale_lines', 'payments', 'cash_movements']) {
      counts[name] = Number(this.db.prepare(`SELECT count(*) FROM ${name}`).pluck().get());
    }
    return counts;
  }

  state(key: string): string | undefined {
    return this.db.prepare('SELECT value FROM mirror_state WHERE key = ?').pluck().get(key) as
      string | undefined;
  }
}

export { EMPTY as EMPTY_DAY_CHECKSUM };
