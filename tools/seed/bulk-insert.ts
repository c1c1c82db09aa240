import type { QueryRunner } from 'typeorm';
import type { BusinessDataBatch, RegisterRow, ShopRow, SqlValue } from './business-data.types';
import { SEED_TABLES, type TableSpec } from './seed-tables';

export type BatchKey = Exclude<keyof BusinessDataBatch, 'businessDate'>;

/**
 * Where each part of a batch goes: the shops and registers, then the business tables of the
 * catalogue (seed-tables.ts); a spec checks these are exactly the parts a batch has.
 */
export const TABLES = {
  shops: table<ShopRow>('bo_shops', ['code', 'name', 'time_zone', 'currency', 'is_active']),
  registers: table<RegisterRow>('pos_registers', ['shop_code', 'code', 'name']),
  ...Object.fromEntries(SEED_TABLES.map(({ key, table, columns }) => [key, { table, columns }])),
} as Readonly<Record<BatchKey, TableSpec>>;

/** The parts of a batch in the order that keeps foreign keys satisfied. */
export const BATCH_KEYS = Object.keys(TABLES) as readonly BatchKey[];

/**
 * A batch's rows of one table: none for a table of the catalogue the generator does not fill
 * (a new resource before its demo rows, which are optional: docs/architecture.md).
 */
export function rowsOf(batch: BusinessDataBatch, key: BatchKey): readonly object[] {
  return batch[key] ?? [];
}

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
        const row = rows[i] as Record<string, SqlValue | undefined>;
        // A nullable column a row leaves out (a field the seed does not fill yet) is NULL.
        for (const column of spec.columns) params.push(row[column] ?? null);
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
