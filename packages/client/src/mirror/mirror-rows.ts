import { digestRecord } from './digest-versions.js';
import { dayChecksum, type Json } from './jcs.js';
import {
  CASH_DRAWER_SESSIONS,
  dayColumn,
  EXTRA,
  recordOf,
  rowOf,
  SALE_LINES,
  SALES,
  type Table,
  TABLE_NAMES,
} from './schema.js';
import { copyText, type MirrorStore, onConflictUpdate, type SqlRunner } from './store.js';

type ApiRecord = Record<string, Json>;

/** Count and checksum of one day of the mirror's own rows (the digest's published rule). */
export interface LocalDay {
  count: number;
  checksum: string;
}

const EMPTY = dayChecksum([]);

/**
 * How the days of a comparison are told: by the calendar date of the record's shop-local time
 * (`soldAt`, ...: the digests' default), or by its `businessDate` (BusinessDateFrom/To).
 */
export type DayKind = 'calendar-date' | 'business-date';

/** Rows a multi-row statement writes at most (fewer when the dialect's placeholders run out). */
const MAX_ROWS_PER_STATEMENT = 500;

/** The rows of the mirror: pages and days written in one transaction each, days read back. */
export class MirrorRows {
  constructor(private readonly store: MirrorStore) {}

  /** Inserts (replacing a row of the same key) `rows`, several a statement. */
  private async upsertRows(
    tx: SqlRunner,
    table: string,
    columns: string[],
    key: string[],
    rows: unknown[][],
  ) {
    const d = this.store.dialect;
    const perStatement = Math.max(
      1,
      Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(d.maxParameters / columns.length)),
    );
    for (let i = 0; i < rows.length; i += perStatement) {
      const n = Math.min(perStatement, rows.length - i);
      const values: unknown[] = new Array(n * columns.length);
      for (let r = 0, at = 0; r < n; r++) {
        for (const value of rows[i + r]) values[at++] = value;
      }
      await tx.run(d.upsert(table, columns, key, n), values);
    }
  }

  private async deleteWhereIn(tx: SqlRunner, table: string, column: string, ids: unknown[]) {
    for (let i = 0; i < ids.length; i += MAX_ROWS_PER_STATEMENT) {
      const chunk = ids.slice(i, i + MAX_ROWS_PER_STATEMENT);
      await tx.run(
        `DELETE FROM ${table} WHERE ${column} IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      );
    }
  }

  /**
   * Rows written over those of the same key through a temporary table of the transaction:
   * COPY into it, then one INSERT … SELECT … ON CONFLICT DO UPDATE (PostgreSQL's bulk path).
   */
  private async copyRows(
    tx: SqlRunner & { copy(sql: string, text: string): Promise<void> },
    table: string,
    columns: string[],
    key: string[],
    rows: unknown[][],
  ) {
    const stage = `stage_${table}`;
    const list = columns.map((c) => `"${c}"`).join(', ');
    await tx.run(
      `CREATE TEMPORARY TABLE IF NOT EXISTS ${stage} (LIKE ${table}) ON COMMIT DELETE ROWS`,
    );
    // Emptied first: kept to the commit, so that the sales' stage still names their lines'.
    await tx.run(`TRUNCATE ${stage}`);
    await tx.copy(`COPY ${stage} (${list}) FROM STDIN`, copyText(rows));
    await tx.run(
      `INSERT INTO ${table} (${list}) SELECT ${list} FROM ${stage} ${onConflictUpdate(columns, key)}`,
    );
  }

  /**
   * Records of one table written over what is there; a sale's lines replaced by its own. `bulk`
   * (a history load's batch, its ids unique): by COPY where the store has it.
   */
  private async upsert(tx: SqlRunner, table: Table, records: ApiRecord[], bulk = false) {
    if (records.length === 0) return;
    const rows = records.map((r) => rowOf(table.columns, r, table === SALES ? ['lines'] : []));
    const columns = [...table.columns.map((c) => c.column), EXTRA];
    const copy = bulk && tx.copy ? tx.copy.bind(tx) : undefined;
    const write = (name: string, names: string[], key: string[], values: unknown[][]) =>
      copy
        ? this.copyRows({ ...tx, copy }, name, names, key, values)
        : this.upsertRows(tx, name, names, key, values);
    await write(table.table, columns, ['id'], rows);
    if (table !== SALES) return;
    const ids = rows.map((row) => row[0]);
    if (copy) {
      await tx.run('DELETE FROM sale_lines WHERE sale_id IN (SELECT id FROM stage_sales)');
    } else {
      await this.deleteWhereIn(tx, 'sale_lines', 'sale_id', ids);
    }
    const lines = records.flatMap((record, i) =>
      ((record.lines ?? []) as ApiRecord[]).map((line) => [rows[i][0], ...rowOf(SALE_LINES, line)]),
    );
    const lineColumns = ['sale_id', ...SALE_LINES.map((c) => c.column), EXTRA];
    await write('sale_lines', lineColumns, ['sale_id', 'line_no'], lines);
  }

  private setState(tx: SqlRunner, key: string, value: string): Promise<void> {
    const sql = this.store.dialect.upsert('mirror_state', ['key', 'value'], ['key'], 1);
    return tx.run(sql, [key, value]);
  }

  /** A feed's page and the cursor after it, in one transaction: a crash keeps both or neither. */
  async writePage(table: Table, records: ApiRecord[], cursorKey: string, cursor: string) {
    await this.store.transaction(async (tx) => {
      await this.upsert(tx, table, records);
      await this.setState(tx, cursorKey, cursor);
    });
  }

  /**
   * A transaction of a history load (history.ts): its records written over what is there and
   * the load's states set; `startOver`: the shop's rows of the table deleted first.
   */
  async writeHistory(
    table: Table,
    shop: string,
    records: ApiRecord[],
    states: Array<[string, string]>,
    startOver = false,
  ) {
    await this.store.transaction(async (tx) => {
      if (startOver) {
        if (table === SALES) {
          await tx.run(
            'DELETE FROM sale_lines WHERE sale_id IN (SELECT id FROM sales WHERE shop_code = ?)',
            [shop],
          );
        }
        await tx.run(`DELETE FROM ${table.table} WHERE shop_code = ?`, [shop]);
      }
      await this.upsert(tx, table, records, true);
      for (const [key, value] of states) await this.setState(tx, key, value);
    });
  }

  /** Whether the copy holds any row of the shop in the table. */
  async holdsShop(table: Table, shop: string): Promise<boolean> {
    const rows = await this.store.all(
      `SELECT 1 AS x FROM ${table.table} WHERE shop_code = ? LIMIT 1`,
      [shop],
    );
    return rows.length > 0;
  }

  /**
   * A day re-read from the list replaces the shop's rows of that day in one transaction: rows
   * the server no longer has disappear, the others take its values. `keep`: ids a feed wrote
   * while the day was being read, which the list may have missed.
   */
  async replaceDay(
    table: Table,
    shop: string,
    day: string,
    records: ApiRecord[],
    keep: Set<string>,
    by: DayKind = 'calendar-date',
  ) {
    const { where } = this.days(table, by);
    await this.store.transaction(async (tx) => {
      const ids = await tx.all(`SELECT id FROM ${table.table} WHERE ${where}`, [
        shop,
        day,
        addDay(day),
      ]);
      const fresh = new Set(records.map((r) => r.id as string));
      // The ids as the driver gave them (BigInt from SQLite), compared as decimal text.
      const gone = ids
        .map((row) => row.id)
        .filter((id) => !fresh.has(String(id)) && !keep.has(String(id)));
      await this.deleteWhereIn(tx, table.table, 'id', gone);
      if (table === SALES) await this.deleteWhereIn(tx, 'sale_lines', 'sale_id', gone);
      await this.upsert(tx, table, records);
    });
  }

  /**
   * The condition "one shop's rows of the days [?, ?)" (placeholders: shop, from, to) and the
   * expression of a row's day. By business date: the `business_date` column (a row an upgrade
   * left without one is in no day: its day differs, and its re-read fills it).
   */
  private days(table: Table, by: DayKind) {
    if (by === 'business-date') {
      return {
        where: 'shop_code = ? AND business_date >= ? AND business_date < ?',
        day: 'business_date',
      };
    }
    const column = dayColumn(table);
    return {
      where: `shop_code = ? AND ${this.store.dialect.dayRange(column)}`,
      day: `substr(${column}, 1, 10)`,
    };
  }

  /** Each day's count and checksum of one shop's rows, from (inclusive) to (exclusive). */
  async localDays(
    table: Table,
    shop: string,
    from: string,
    to: string,
    fields?: readonly string[],
    by: DayKind = 'calendar-date',
  ) {
    const days = new Map<string, LocalDay>();
    let current: { day: string; records: ApiRecord[] } | undefined;
    const close = () => {
      if (current) {
        const { day, records } = current;
        days.set(day, { count: records.length, checksum: dayChecksum(records) });
      }
    };
    for (const { day, record } of await this.records(table, shop, from, to, by)) {
      if (current?.day !== day) {
        close();
        current = { day, records: [] };
      }
      current.records.push(fields ? digestRecord(record, fields) : record);
    }
    close();
    return days;
  }

  /** The API's records of one shop's days, back from the rows, by day then numeric id. */
  private async records(table: Table, shop: string, from: string, to: string, by: DayKind) {
    const { where, day } = this.days(table, by);
    const rows = await this.store.all(
      `SELECT ${table.table}.*, ${day} AS day_ FROM ${table.table} WHERE ${where} ORDER BY day_, id`,
      [shop, from, to],
    );
    const lines = table === SALES ? await this.linesByDay(where, shop, from, to) : undefined;
    return rows.map((row) => {
      const record = recordOf(table.columns, row);
      if (lines) record.lines = lines.get(record.id as string) ?? [];
      return { day: row.day_ as string, record };
    });
  }

  private async linesByDay(where: string, shop: string, from: string, to: string) {
    const rows = await this.store.all(
      `SELECT l.* FROM sale_lines l JOIN sales s ON s.id = l.sale_id ` +
        `WHERE ${where.replace(/shop_code|sold_at|business_date/g, (c) => `s.${c}`)} ORDER BY l.sale_id, l.line_no`,
      [shop, from, to],
    );
    const bySale = new Map<string, ApiRecord[]>();
    for (const row of rows) {
      const id = String(row.sale_id);
      const list = bySale.get(id) ?? [];
      list.push(recordOf(SALE_LINES, row));
      bySale.set(id, list);
    }
    return bySale;
  }

  /**
   * A page of a shop's drawer sessions (a re-read of the sessions opened from `walk.from` to
   * `walk.to`, or of all of them when both are absent) and the walk's state after it, in one
   * transaction: the page's records written over what is there, and the shop's sessions in the
   * span the page covers that it no longer lists deleted. The span: after the previous page's
   * last (opened_at, id), up to this page's last (`upTo`; the last page: to the end of the
   * period). `states`: `mirror_state` keys set to their value, or deleted when it is undefined.
   */
  async replaceSessions(
    shop: string,
    walk: { from?: string; to?: string; after: [string, string] | null },
    upTo: [string, string] | null,
    records: ApiRecord[],
    states: Array<[string, string | undefined]>,
  ) {
    const column = dayColumn(CASH_DRAWER_SESSIONS);
    const span = ['shop_code = ?'];
    const parameters: unknown[] = [shop];
    if (walk.from !== undefined && walk.to !== undefined) {
      span.push(`${column} >= ? AND ${column} < ?`);
      parameters.push(walk.from, walk.to);
    }
    if (walk.after) {
      span.push(`(${column} > ? OR (${column} = ? AND id > ?))`);
      parameters.push(walk.after[0], walk.after[0], BigInt(walk.after[1]));
    }
    if (upTo) {
      span.push(`(${column} < ? OR (${column} = ? AND id <= ?))`);
      parameters.push(upTo[0], upTo[0], BigInt(upTo[1]));
    }
    const table = CASH_DRAWER_SESSIONS.table;
    await this.store.transaction(async (tx) => {
      const ids = await tx.all(`SELECT id FROM ${table} WHERE ${span.join(' AND ')}`, parameters);
      const fresh = new Set(records.map((r) => r.id as string));
      const gone = ids.map((row) => row.id).filter((id) => !fresh.has(String(id)));
      await this.deleteWhereIn(tx, table, 'id', gone);
      await this.upsert(tx, CASH_DRAWER_SESSIONS, records);
      const q = this.store.dialect.quote;
      for (const [key, value] of states) {
        if (value !== undefined) await this.setState(tx, key, value);
        else await tx.run(`DELETE FROM mirror_state WHERE ${q('key')} = ?`, [key]);
      }
    });
  }

  /**
   * The opening dates of a shop's sessions opened before `day` that are still OPEN in the copy
   * and the last of their register opened before it: a later count can still close them (an
   * earlier open one was left when its register opened the next, and stays OPEN).
   */
  async openSessionDaysBefore(shop: string, day: string): Promise<string[]> {
    const t = CASH_DRAWER_SESSIONS;
    const column = (field: string) => t.columns.find((c) => c.field === field)?.column ?? field;
    const [opened, register, status] = ['openedAt', 'registerCode', 'status'].map(column);
    // Each register's last opening before the day (one grouped scan), then those still open.
    const rows = await this.store.all(
      `SELECT DISTINCT substr(s.${opened}, 1, 10) AS day_ FROM ${t.table} s JOIN (` +
        `SELECT ${register} AS r, MAX(${opened}) AS m FROM ${t.table} ` +
        `WHERE shop_code = ? AND ${opened} < ? GROUP BY ${register}) l ` +
        `ON s.${register} = l.r AND s.${opened} = l.m ` +
        `WHERE s.shop_code = ? AND s.${status} = 'OPEN' ORDER BY day_`,
      [shop, day, shop],
    );
    return rows.map((row) => String(row.day_));
  }

  /** One shop's drawer sessions of the days [from, to), as the API's records, by day. */
  async sessionDays(shop: string, from: string, to: string, by: DayKind) {
    const days = new Map<string, ApiRecord[]>();
    for (const { day, record } of await this.records(CASH_DRAWER_SESSIONS, shop, from, to, by)) {
      const records = days.get(day) ?? [];
      records.push(record);
      days.set(day, records);
    }
    return days;
  }

  /** Whether the database has the table (verify reads an older mirror as it is). */
  async holds(table: string): Promise<boolean> {
    return (await this.store.tables()).includes(table);
  }

  /** Rows per table there, for the summary (an older file read by verify lacks the newer ones). */
  async counts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    const present = await this.store.tables();
    for (const name of TABLE_NAMES.filter((t) => present.includes(t))) {
      const [row] = await this.store.all(`SELECT count(*) AS n FROM ${name}`);
      counts[name] = Number(row.n);
    }
    return counts;
  }

  async state(key: string): Promise<string | undefined> {
    const q = this.store.dialect.quote;
    const [row] = await this.store.all(
      `SELECT ${q('value')} AS v FROM mirror_state WHERE ${q('key')} = ?`,
      [key],
    );
    return row?.v as string | undefined;
  }
}

/** `YYYY-MM-DD` of the next day. */
function addDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

export { EMPTY as EMPTY_DAY_CHECKSUM };
