import { type BusinessDates, midnight } from '../../common/pagination/filter-parameters';
import type { SqlReader } from '../../database/sql-reader';
import { BUSINESS_DATE, businessDateRule, type Derivation, type Source } from '../source';
import { sqlMarker, sqlName } from './derived-columns';

/*
 * Business dates → a time range: the shared bound of every read by business date (the lists'
 * walks, the report's chunks, the digests' days), by the source's rule (businessDateRule in
 * ../source.ts; docs/database.md, "Reading by business date"). The range holds every row whose
 * business date is in the dates, and maybe others: a read by business date filters its rows by
 * the date too (in SQL where it can, `businessDateSql`, and always after the read,
 * `inBusinessDates`), so that it is exact.
 */

/**
 * The SQL of a row's business date over the table aliased `alias`, or null when only the read
 * can tell it (a session date) or the time range already is exact (the date of `time`).
 */
export function businessDateSql(source: Source<unknown>, alias: string): string | null {
  const rule = businessDateRule(source);
  if (rule.kind === 'column') return `${alias}.${BUSINESS_DATE}`;
  if (rule.kind !== 'lookup') return null;
  const { table, key, by, column } = rule.derivation;
  return `(SELECT d_b.${sqlName(column)} FROM ${sqlName(table)} d_b WHERE d_b.${sqlName(key)} = ${alias}.${sqlName(by)})`;
}

/** Whether a row read from `source` (its session dates computed) has its business date in `dates`. */
export function inBusinessDates(source: Source<unknown>, row: object, dates: BusinessDates) {
  const values = row as Record<string, unknown>;
  const rule = businessDateRule(source);
  const value = rule.kind === 'time' ? values[source.time] : values[BUSINESS_DATE];
  const date = String(value).slice(0, 10);
  return date >= dates.from && date < dates.to;
}

/** A time range of the source's `time` column, stored form: `to` exclusive, null unbounded. */
export interface TimeRange {
  from: string;
  to: string | null;
}

/** The stored date-time 1 ms after `stored`: an exclusive bound just above an inclusive one. */
function justAfter(stored: unknown): string {
  const ms = Date.parse(`${String(stored).replace(' ', 'T')}Z`) + 1;
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 23);
}

/**
 * The time range holding every row of `shops` whose business date is in `dates`, from the data
 * (one or two statements), or null when no row can be in them. Read once, at a walk's first
 * page, and carried in its cursor: rows inserted later into the dates are read if they fall in
 * it, and never twice (the walk stays in (time, id) order).
 * - column: MIN and MAX of `time` over the dates (index (shop_code, business_date, time):
 *   sql/recommended-indexes.sql);
 * - lookup: the same through the looked-up rows of the shops (a payment's sale is of its shop);
 * - session: from the first date's midnight (a session's rows are at or after its opening) to
 *   the first opening or closing row at or after the end's midnight of each register whose last
 *   one before it opened a session in the dates; unbounded while such a session is open;
 * - time: the dates' midnights.
 * Inside the wall: only the list mode, the report and the digests call it, with the caller's shops.
 */
export async function readBusinessDateRange(
  source: Source<unknown>,
  shops: readonly string[],
  dates: BusinessDates,
  db: SqlReader,
): Promise<TimeRange | null> {
  if (shops.length === 0 || dates.from >= dates.to) return null;
  const rule = businessDateRule(source);
  const [t, table] = [sqlName(source.time), sqlName(source.table)];
  const marks = shops.map(() => '?').join(', ');
  if (rule.kind === 'time') return { from: midnight(dates.from), to: midnight(dates.to) };
  if (rule.kind === 'session') return sessionRange(source, rule.derivation, shops, dates, db);
  let sql: string;
  if (rule.kind === 'column') {
    sql =
      `SELECT MIN(x.${t}) AS lo, MAX(x.${t}) AS hi FROM ${table} x ` +
      `WHERE x.shop_code IN (${marks}) AND x.${BUSINESS_DATE} >= ? AND x.${BUSINESS_DATE} < ?`;
  } else {
    const { key, by, column } = rule.derivation;
    const looked = sqlName(rule.derivation.table);
    sql =
      `SELECT MIN(x.${t}) AS lo, MAX(x.${t}) AS hi FROM ${looked} d ` +
      `JOIN ${table} x ON x.${sqlName(by)} = d.${sqlName(key)} ` +
      `WHERE d.shop_code IN (${marks}) AND d.${sqlName(column)} >= ? AND d.${sqlName(column)} < ? ` +
      `AND x.shop_code IN (${marks})`;
  }
  const params =
    rule.kind === 'column'
      ? [...shops, dates.from, dates.to]
      : [...shops, dates.from, dates.to, ...shops];
  const [row] = await db.query(sql, params);
  if (row?.lo === null || row?.lo === undefined) return null;
  return { from: String(row.lo), to: justAfter(row.hi) };
}

async function sessionRange(
  source: Source<unknown>,
  rule: Extract<Derivation, { kind: 'sessionDate' }>,
  shops: readonly string[],
  dates: BusinessDates,
  db: SqlReader,
): Promise<TimeRange> {
  const [t, table, marker] = [sqlName(source.time), sqlName(source.table), sqlName(rule.marker)];
  const [start, end] = [midnight(dates.from), midnight(dates.to)];
  const cols = rule.partition.map(sqlName);
  // The registers that opened a session in the dates: only their rows can pass the end's midnight.
  const opened = await db.query(
    `SELECT DISTINCT ${cols.map((c) => `x.${c}`).join(', ')} FROM ${table} x ` +
      `WHERE x.shop_code IN (${shops.map(() => '?').join(', ')}) AND x.${t} >= ? AND x.${t} < ? ` +
      `AND x.${marker} = ${sqlMarker(rule.opens)}`,
    [...shops, start, end],
  );
  let to: string | null = end;
  if (opened.length === 0) return { from: start, to };
  const same = cols.map((c) => `d.${c} = ?`).join(' AND ');
  const kinds = `${sqlMarker(rule.opens)}, ${sqlMarker(rule.closes)}`;
  const select = `d.${marker} AS kind, d.${t} AS t`;
  const members: string[] = [];
  const params: unknown[] = [];
  opened.forEach((row, i) => {
    const values = cols.map((c) => String(row[c]));
    // Each a range with constant bounds on (shop_code, time, id): the last boundary before the
    // end's midnight, and the first at or after it.
    members.push(
      `SELECT ${i} AS p, 0 AS side, b.kind, b.t FROM (SELECT ${select} FROM ${table} d WHERE ${same} ` +
        `AND d.${marker} IN (${kinds}) AND d.${t} < ? ORDER BY d.${t} DESC, d.id DESC LIMIT 1) b`,
      `SELECT ${i} AS p, 1 AS side, a.kind, a.t FROM (SELECT ${select} FROM ${table} d WHERE ${same} ` +
        `AND d.${marker} IN (${kinds}) AND d.${t} >= ? ORDER BY d.${t}, d.id LIMIT 1) a`,
    );
    params.push(...values, end, ...values, end);
  });
  const found = await db.query(members.join(' UNION ALL '), params);
  for (let i = 0; i < opened.length; i++) {
    const last = found.find((r) => Number(r.p) === i && Number(r.side) === 0);
    if (String(last?.kind) !== rule.opens) continue;
    const next = found.find((r) => Number(r.p) === i && Number(r.side) === 1);
    // A session still open at the end's midnight: its rows run to its next boundary, or on.
    if (!next) return { from: start, to: null };
    const bound = justAfter(next.t);
    if (to !== null && bound > to) to = bound;
  }
  return { from: start, to };
}
