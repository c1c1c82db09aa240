import type { QueryRunner } from 'typeorm';
import type { Source } from '../../src/backoffice/source';
import { CASH_MOVEMENTS } from '../../src/cash-movements/cash-movements.source';
import { PAYMENTS } from '../../src/payments/payments.source';
import { SALE_LINES, SALES } from '../../src/sales/sales.source';
import type { BusinessDataBatch, RegisterRow, ShopRow, SqlValue } from './business-data.types';

export interface TableSpec {
  table: string;
  columns: readonly string[];
}

export type BatchKey = Exclude<keyof BusinessDataBatch, 'businessDate'>;

/** What the seed inserts into a resource's table: its declared columns, and its arrival column. */
function insertOf(source: Source<unknown>): TableSpec {
  const arrival = source.arrivedAt ? [source.arrivedAt] : [];
  return { table: source.table, columns: [...Object.keys(source.columns), ...arrival] };
}

/** Where each part of a batch goes. */
export const TABLES: Readonly<Record<BatchKey, TableSpec>> = {
  shops: table<ShopRow>('bo_shops', ['code', 'name', 'time_zone', 'currency', 'is_active']),
  registers: table<RegisterRow>('pos_registers', ['shop_code', 'code', 'name']),
  sales: insertOf(SALES),
  lines: { table: SALE_LINES.table, columns: Object.keys(SALE_LINES.columns) },
  payments: insertOf(PAYMENTS),
  cashMovements: insertOf(CASH_MOVEMENTS),
};

/** The parts of a batch in the order that keeps foreign keys satisfied. */
export const BATCH_KEYS: readonly BatchKey[] = [
  'shops',
  'registers',
  'sales',
  'lines',
  'payments',
  'cashMovements',
];

/**
 * Multi-row INSERTs with `?` placeholders. A statement holds at most `maxRows` rows and
 * `maxParams` values (SQLite allows 32766 variables per statement). One statement may be in
 * flight while the next is built, so the database and the generator work at the same time;
 * `flush()` waits for it (before a commit, say).
 */
export class BulkInserter {
  private readonly sqlCache = new Map<string, string>();
  private pending: Promise<unknown> | null = null;

  constructor(
    private readonly runner: QueryRunner,
    private readonly maxRows: number,
    private readonly maxParams: number,
  ) {}

  async insert(spec: TableSpec, rows: readonly object[]): Promise<void> {
    const perStatement = Math.max(
      1,
      Math.min(this.maxRows, Math.floor(this.maxParams / spec.columns.length)),
    );
    for (let start = 0; start < rows.length; start += perStatement) {
      const end = Math.min(rows.length, start + perStatement);
      const params: SqlValue[] = [];
      for (let i = start; i < end; i++) {
        const row = rows[i] as Record<string, SqlValue>;
        for (const column of spec.columns) params.push(row[column]);
      }
      const sql = this.sql(spec, end - start);
      await this.flush();
      const sent = this.runner.query(sql, params);
      // Marked as handled now; the error still surfaces at the next flush().
      sent.catch(() => undefined);
      this.pending = sent;
    }
  }

  /** Waits for the statement in flight, if any; rethrows its error. */
  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = null;
    if (pending) await pending;
  }

  private sql(spec: TableSpec, rowCount: number): string {
    const key = `${spec.table}:${rowCount}`;
    let sql = this.sqlCache.get(key);
    if (!sql) {
      const tuple = `(${spec.columns.map(() => '?').join(', ')})`;
      sql =
        `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES ` +
        Array.from({ length: rowCount }, () => tuple).join(', ');
      this.sqlCache.set(key, sql);
    }
    return sql;
  }
}

/** Column names are checked against the row type `R`. */
function table<R>(name: string, columns: readonly (keyof R & string)[]): TableSpec {
  return { table: name, columns };
}
