import type { SqlReader } from '../../database/sql-reader';
import type { Columns, Source } from '../../catalogue/source';
import { selectedValues } from './derived-columns';
import { readSessionParts } from './session-dates';

/**
 * What a digest's records are built from, per date, computed by the database (issue 45): for the
 * source's rows of the date, and for the rows of each attachment whose parent lies in the date,
 * `COUNT(*)` and `SUM(CRC32(…))` of every declared column, each written with `QUOTE` (injective:
 * NULL is the bare word, a text is quoted with its quotes escaped) and joined by commas. The
 * columns are the source's declaration, the same that its SELECT and its mapping read, so a new
 * field is in the fingerprint the day it is declared.
 *
 * The sum is exact (DECIMAL in MySQL, 64-bit in SQLite) and ignores order, so an insert or a
 * delete moves the count, and a change of any column moves its row's CRC-32, hence the sum, but
 * for a 2^-32 chance per changed row (none for a change within 32 consecutive bits: one digit,
 * one status). It is a cache key and nothing more: docs/sync.md, "The digests' cache".
 *
 * One statement per table, grouped by date over the (shop_code, time, id) index range, run at
 * once: one small row per date that has rows. A date without rows has no fingerprint (its digest is the empty
 * one, without a read). SQLite has no CRC32: database/sqlite-functions.ts gives it one.
 */
export type DayFingerprints = ReadonlyMap<string, string>;

const rowHashes = new WeakMap<Columns, Map<string, string>>();

const hashOf = (values: readonly string[]): string =>
  `CRC32(CONCAT_WS(',', ${values.map((value) => `QUOTE(${value})`).join(', ')}))`;

/**
 * An attached row's hash: CRC32 of every declared column, QUOTEd, joined by commas. Built once
 * per declaration and alias: every date of every digest selects it.
 */
export function rowHash(columns: Columns, alias: string): string {
  let byAlias = rowHashes.get(columns);
  if (!byAlias) rowHashes.set(columns, (byAlias = new Map<string, string>()));
  let hash = byAlias.get(alias);
  if (hash === undefined) {
    byAlias.set(alias, (hash = hashOf(Object.keys(columns).map((name) => `${alias}.${name}`))));
  }
  return hash;
}

const sourceHashes = new WeakMap<Source<unknown>, string>();

/**
 * A source row's hash over the table aliased `x`: its own columns and its derived ones (what
 * they read: the shop's zone, the sale's business date), so a change to what a derived column
 * reads moves the fingerprint of the days whose rows read it. Built once per source.
 */
export function sourceRowHash(source: Source<unknown>): string {
  let hash = sourceHashes.get(source);
  if (hash === undefined) {
    hash = hashOf(selectedValues(source).map((value) => value.sql));
    sourceHashes.set(source, hash);
  }
  return hash;
}

/** The name of the row hash a day's read selects beside the columns (sql/day-reader.ts). */
export const ROW_HASH = 'row_hash';

/** A fingerprint's part: `count:sum` of one table's row hashes, as the grouped statements give it. */
export function fingerprintPart(hashes: ReadonlyArray<number | string>): string {
  let sum = 0;
  for (const hash of hashes) sum += Number(hash);
  return `${hashes.length}:${sum}`;
}

/** The statements of a source's fingerprints: its own rows, then one per attachment. */
export function fingerprintStatements(source: Source<unknown>): string[] {
  const where = `x.shop_code IN (%SHOPS%) AND x.${source.time} >= ? AND x.${source.time} < ?`;
  const day = `DATE(x.${source.time})`;
  const own =
    `SELECT ${day} AS day, COUNT(*) AS n, SUM(${sourceRowHash(source)}) AS h ` +
    `FROM ${source.table} x WHERE ${where} GROUP BY ${day}`;
  const attached = source.attached.map(
    (a) =>
      `SELECT ${day} AS day, COUNT(*) AS n, SUM(${rowHash(a.columns, 'c')}) AS h ` +
      `FROM ${a.table} c JOIN ${source.table} x ON x.id = c.${a.parentId} ` +
      `WHERE ${where} GROUP BY ${day}`,
  );
  return [own, ...attached];
}

const statements = new WeakMap<Source<unknown>, string[]>();

/**
 * The fingerprint of every date of `period` that has rows of `shops` in `source`: date
 * (`YYYY-MM-DD`) → `count:sum` of the rows, then of each attachment's rows, joined by `/`.
 * Inside the wall, as readDay: only the Wall calls it, with the caller's shops.
 */
export async function readFingerprints(
  source: Source<unknown>,
  shops: readonly string[],
  period: { from: string; to: string },
  db: SqlReader,
): Promise<DayFingerprints> {
  if (shops.length === 0) return new Map();
  let sqls = statements.get(source);
  if (!sqls) statements.set(source, (sqls = fingerprintStatements(source)));
  const marks = shops.map(() => '?').join(', ');
  const params = [...shops, period.from, period.to];
  const parts = new Map<string, string[]>();
  // The statements at once, on as many connections: the answer waits for the longest only.
  const [sessions, ...results] = await Promise.all([
    readSessionParts(source, shops, period, db),
    ...sqls.map((sql) => db.query(sql.replace('%SHOPS%', marks), params)),
  ]);
  for (const [i, result] of results.entries()) {
    for (const row of result) {
      const day = String(row.day).slice(0, 10);
      let of = parts.get(day);
      if (!of) parts.set(day, (of = sqls.map(() => '0:0')));
      of[i] = `${String(row.n)}:${String(row.h)}`;
    }
  }
  return new Map([...parts].map(([day, of]) => [day, of.join('/') + (sessions.get(day) ?? '')]));
}
