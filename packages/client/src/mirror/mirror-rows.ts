import { dayChecksum, type Json } from './jcs.js';
import { dayColumn, recordOf, rowOf, SALE_LINES, SALES, type Table, TABLES } from './schema.js';
import type { Database, Statement } from './sqlite-driver.js';

type ApiRecord = Record<string, Json>;

/** Count and checksum of one day of the mirror's own rows (the digest's published rule). */
export interface LocalDay {
  count: number;
  checksum: string;
}

const EMPTY = dayChecksum([]);

/** The rows of the mirror: pages and days written in one transaction each, days read back. */
export class MirrorRows {
  private readonly upserts = new Map<Table, Statement>();
  private readonly insertLine: Statement;
  private readonly deleteLines: Statement;
  private readonly setState: Statement;

  constructor(private readonly db: Database) {
    for (const t of TABLES) {
      const names = t.columns.map((c) => c.column);
      this.upserts.set(
        t,
        db.prepare(
          `INSERT OR REPLACE INTO ${t.table} (${names.join(', ')}) ` +
            `VALUES (${names.map(() => '?').join(', ')})`,
        ),
      );
    }
    const lineNames = ['sale_id', ...SALE_LINES.map((c) => c.column)];
    this.insertLine = db.prepare(
      `INSERT INTO sale_lines (${lineNames.join(', ')}) VALUES (${lineNames.map(() => '?').join(', ')})`,
    );
    this.deleteLines = db.prepare('DELETE FROM sale_lines WHERE sale_id = ?');
    this.setState = db.prepare('INSERT OR REPLACE INTO mirror_state (key, value) VALUES (?, ?)');
  }

  private upsert(table: Table, record: ApiRecord): void {
    const row = rowOf(table.columns, record);
    (this.upserts.get(table) as Statement).run(...row);
    if (table !== SALES) return;
    this.deleteLines.run(row[0]);
    for (const line of (record.lines ?? []) as ApiRecord[]) {
      this.insertLine.run(row[0], ...rowOf(SALE_LINES, line));
    }
  }

  /** A feed's page and the cursor after it, in one transaction: a crash keeps both or neither. */
  writePage(table: Table, records: ApiRecord[], cursorKey: string, cursor: string): void {
    this.db.transaction(() => {
      for (const record of records) this.upsert(table, record);
      this.setState.run(cursorKey, cursor);
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
        if (table === SALES) this.deleteLines.run(id);
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
