import type { DataSource, QueryRunner } from 'typeorm';
import { generateBusinessData } from './business-data.generator';
import { validateBusinessDataOptions } from './business-data.options';
import type { BusinessDataOptions, IdLike, SeedIds } from './business-data.types';
import { BATCH_KEYS, type BatchKey, BulkInserter, rowsOf, TABLES } from './bulk-insert';
import { readExistingData } from './existing-data';
import { addDays } from './seed-format';
import { ID_KEYS } from './seed-tables';
import { shopSpecs } from './shop-setup';

/** Rows per INSERT statement, and values per statement (SQLite's limit is 32766). */
const MAX_ROWS_PER_STATEMENT = 2_000;
const MAX_PARAMS_PER_STATEMENT = 32_766;
/** A transaction is committed once it holds at least this many rows (at a day boundary). */
const ROWS_PER_TRANSACTION = 100_000;

export interface SeedProgress {
  businessDate: string;
  daysDone: number;
  days: number;
  rows: number;
  elapsedMs: number;
}

export interface SeedBusinessDataOptions extends Omit<BusinessDataOptions, 'startDate'> {
  /**
   * Default: the day after the latest business date of these shops; on shops without sales, the
   * first of `days` ending yesterday (UTC), as the demo does.
   */
  startDate?: string;
  /** Today, for the default start (tests). */
  now?: Date;
  /** Called after each business date is written. */
  onProgress?: (progress: SeedProgress) => void;
  /** Rows per INSERT statement (capped by SQLite's 32766 values); default 2000. */
  rowsPerStatement?: number;
}

/**
 * What was written: rows per table by the batch's key (`shops` and `registers`: 0 for those that
 * already existed; `sales`, `lines`, … the tables of seed-tables.ts), the shops, the dates and
 * the ids given out.
 */
export type SeedSummary = Record<BatchKey, number> & {
  database: 'mysql' | 'sqlite';
  shopCodes: string[];
  firstDate: string;
  lastDate: string;
  totalRows: number;
  firstIds: SeedIds<string>;
  /** The ids the next append starts from. */
  nextIds: SeedIds<string>;
  elapsedMs: number;
};

/**
 * Generates business data and writes it with bulk INSERTs on one connection, committing every
 * ~100k rows. Appends to what is there: ids continue after MAX(id), ticket numbers after the
 * last one of each register, and dates after the shops' latest business date, by default.
 */
export async function seedBusinessData(
  dataSource: DataSource,
  options: SeedBusinessDataOptions,
): Promise<SeedSummary> {
  const started = Date.now();
  const endingYesterday = addDays(
    (options.now ?? new Date()).toISOString().slice(0, 10),
    -options.days,
  );
  validateBusinessDataOptions({ ...options, startDate: options.startDate ?? endingYesterday });
  const isMysql = dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb';
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const restore = isMysql ? await relaxMysqlSession(runner) : null;
  try {
    const existing = await readExistingData(runner, isMysql, shopSpecs(options.shops));
    const firstIds = resolveIds(options.firstIds, existing.firstIds);
    const startDate = options.startDate ?? existing.nextBusinessDate ?? endingYesterday;
    const summary: SeedSummary = {
      database: isMysql ? 'mysql' : 'sqlite',
      shopCodes: existing.shops.map((s) => s.code),
      firstDate: startDate,
      lastDate: addDays(startDate, options.days - 1),
      ...(Object.fromEntries(BATCH_KEYS.map((key) => [key, 0])) as Record<BatchKey, number>),
      totalRows: 0,
      firstIds,
      nextIds: firstIds,
      elapsedMs: 0,
    };
    const batches = generateBusinessData({
      seed: options.seed,
      shops: existing.shops,
      days: options.days,
      salesPerDay: options.salesPerDay,
      startDate,
      firstIds,
      nextTicketNumbers: { ...existing.nextTicketNumbers, ...options.nextTicketNumbers },
    });
    const inserter = new BulkInserter(
      runner,
      options.rowsPerStatement ?? MAX_ROWS_PER_STATEMENT,
      MAX_PARAMS_PER_STATEMENT,
    );
    let uncommitted = 0;
    let daysDone = 0;
    await runner.startTransaction();
    try {
      for (const batch of batches) {
        for (const key of BATCH_KEYS) {
          const rows = rowsOf(batch, key);
          await inserter.insert(TABLES[key], rows);
          summary[key] += rows.length;
          summary.totalRows += rows.length;
          uncommitted += rows.length;
        }
        if (uncommitted >= ROWS_PER_TRANSACTION) {
          await inserter.flush();
          await runner.commitTransaction();
          await runner.startTransaction();
          uncommitted = 0;
        }
        daysDone++;
        const elapsedMs = Date.now() - started;
        const rows = summary.totalRows;
        options.onProgress?.({
          businessDate: batch.businessDate,
          daysDone,
          days: options.days,
          rows,
          elapsedMs,
        });
      }
      await inserter.flush();
      await runner.commitTransaction();
    } catch (error) {
      await inserter.flush().catch(() => undefined);
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    }
    summary.nextIds = byIdKey((key) => String(BigInt(firstIds[key]) + BigInt(summary[key])));
    summary.elapsedMs = Date.now() - started;
    return summary;
  } finally {
    if (restore) await restore().catch(() => undefined);
    await runner.release();
  }
}

function resolveIds(
  given: Partial<SeedIds> | undefined,
  fallback: SeedIds<string>,
): SeedIds<string> {
  const pick = (value: IdLike | undefined, otherwise: string): string =>
    value === undefined ? otherwise : String(value);
  return byIdKey((key) => pick(given?.[key], fallback[key]));
}

/** An id per table with ids. */
function byIdKey(id: (key: keyof SeedIds) => string): SeedIds<string> {
  return Object.fromEntries(ID_KEYS.map((key) => [key, id(key)])) as SeedIds<string>;
}

/**
 * Skips unique and foreign-key checks on this connection while it bulk-loads rows that the
 * generator already keeps consistent; returns what puts the session back as it was.
 */
async function relaxMysqlSession(runner: QueryRunner): Promise<() => Promise<void>> {
  const [before] = (await runner.query(
    'SELECT @@SESSION.unique_checks AS uniqueChecks, @@SESSION.foreign_key_checks AS foreignKeyChecks',
  )) as { uniqueChecks: number | string; foreignKeyChecks: number | string }[];
  await runner.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
  return async () => {
    await runner.query('SET SESSION unique_checks = ?, foreign_key_checks = ?', [
      Number(before.uniqueChecks),
      Number(before.foreignKeyChecks),
    ]);
  };
}
