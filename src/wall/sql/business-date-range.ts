import { type BusinessDates, midnight, nextDate } from '../../common/query/filter-parameters';
import type { Row, SqlReader } from '../../database/sql-reader';
import {
  BUSINESS_DATE,
  businessDateRule,
  type Derivation,
  type Source,
} from '../../catalogue/source';
import { sqlMarker, sqlName } from './derived-columns';
import { sessionEnds } from './session-ends';

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

/** The time range covering `ranges` (to null: unbounded), or null when there is none. */
export function coverOf(ranges: Iterable<TimeRange>): TimeRange | null {
  let cover: TimeRange | null = null;
  for (const { from, to } of ranges) {
    if (cover === null) cover = { from, to };
    if (from < cover.from) cover.from = from;
    if (cover.to !== null && (to === null || to > cover.to)) cover.to = to;
  }
  return cover;
}

/**
 * The time range holding every row of `shops` whose business date is in `dates` (the cover of
 * their ranges, readBusinessDateRanges), or null when no row can be in them. Read once, at a
 * walk's first page, and carried in its cursor: rows inserted later into the dates are read if
 * they fall in it, and never twice (the walk stays in (time, id) order).
 * Inside the wall: only the list mode, the report and the digests call it, with the caller's shops.
 */
export async function readBusinessDateRange(
  source: Source<unknown>,
  shops: readonly string[],
  dates: BusinessDates,
  db: SqlReader,
): Promise<TimeRange | null> {
  return coverOf((await readBusinessDateRanges(source, shops, dates, db)).values());
}

/**
 * Each date of `dates` → the time range holding its rows of `shops`, from the data (one or two
 * statements); a date no row can have is absent:
 * - column: MIN and MAX of `time` per date (index (shop_code, business_date, time):
 *   sql/recommended-indexes.sql);
 * - lookup: the same through the looked-up rows of the shops (a payment's sale is of its shop);
 * - session: from the date's midnight (a session's rows are at or after its opening) to the next
 *   midnight, or past where each session opened that day ends when later (sessionEnds: its
 *   register's next opening or closing row, or its last row for a drawer never counted);
 * - time: the date's midnights.
 * Inside the wall, as readBusinessDateRange; the day close bounds its walks and days with it.
 */
export async function readBusinessDateRanges(
  source: Source<unknown>,
  shops: readonly string[],
  dates: BusinessDates,
  db: SqlReader,
): Promise<Map<string, TimeRange>> {
  const ranges = new Map<string, TimeRange>();
  if (shops.length === 0 || dates.from >= dates.to) return ranges;
  const rule = businessDateRule(source);
  if (rule.kind === 'time') return midnights(dates);
  if (rule.kind === 'session') return sessionRanges(source, rule.derivation, shops, dates, db);
  const [t, table] = [sqlName(source.time), sqlName(source.table)];
  const marks = shops.map(() => '?').join(', ');
  let sql: string;
  if (rule.kind === 'column') {
    sql =
      `SELECT x.${BUSINESS_DATE} AS d, MIN(x.${t}) AS lo, MAX(x.${t}) AS hi FROM ${table} x ` +
      `WHERE x.shop_code IN (${marks}) AND x.${BUSINESS_DATE} >= ? AND x.${BUSINESS_DATE} < ? ` +
      `GROUP BY x.${BUSINESS_DATE}`;
  } else {
    const { key, by } = rule.derivation;
    const [looked, column] = [sqlName(rule.derivation.table), sqlName(rule.derivation.column)];
    sql =
      `SELECT d.${column} AS d, MIN(x.${t}) AS lo, MAX(x.${t}) AS hi FROM ${looked} d ` +
      `JOIN ${table} x ON x.${sqlName(by)} = d.${sqlName(key)} ` +
      `WHERE d.shop_code IN (${marks}) AND d.${column} >= ? AND d.${column} < ? ` +
      `AND x.shop_code IN (${marks}) GROUP BY d.${column}`;
  }
  const params =
    rule.kind === 'column'
      ? [...shops, dates.from, dates.to]
      : [...shops, dates.from, dates.to, ...shops];
  for (const row of await db.query(sql, params)) {
    if (row.lo === null || row.lo === undefined) continue;
    ranges.set(String(row.d).slice(0, 10), { from: String(row.lo), to: justAfter(row.hi) });
  }
  return ranges;
}

/** Each date → its midnight to the next. */
function midnights(dates: BusinessDates): Map<string, TimeRange> {
  const ranges = new Map<string, TimeRange>();
  for (let d = dates.from; d < dates.to; d = nextDate(d)) {
    ranges.set(d, { from: midnight(d), to: midnight(nextDate(d)) });
  }
  return ranges;
}

async function sessionRanges(
  source: Source<unknown>,
  rule: Extract<Derivation, { kind: 'sessionDate' }>,
  shops: readonly string[],
  dates: BusinessDates,
  db: SqlReader,
): Promise<Map<string, TimeRange>> {
  const [t, table, marker] = [sqlName(source.time), sqlName(source.table), sqlName(rule.marker)];
  const [start, end] = [midnight(dates.from), midnight(dates.to)];
  const cols = rule.partition.map(sqlName);
  const kinds = `${sqlMarker(rule.opens)}, ${sqlMarker(rule.closes)}`;
  const ranges = midnights(dates);
  // Every opening and closing row of the dates, by register in (time, id) order: a session opened
  // on a date holds its register's rows up to the next of them.
  const marks = await db.query(
    `SELECT ${cols.map((c) => `x.${c}`).join(', ')}, x.${marker} AS kind, x.${t} AS t ` +
      `FROM ${table} x WHERE x.shop_code IN (${shops.map(() => '?').join(', ')}) ` +
      `AND x.${t} >= ? AND x.${t} < ? AND x.${marker} IN (${kinds}) ORDER BY x.${t}, x.id`,
    [...shops, start, end],
  );
  const registers = new Map<string, { values: string[]; marks: Row[] }>();
  for (const row of marks) {
    const values = cols.map((c) => String(row[c]));
    const key = values.join('\u0000');
    const register = registers.get(key) ?? { values, marks: [] };
    register.marks.push(row);
    registers.set(key, register);
  }
  // The registers whose last row of the dates opens a session: where it ends (sessionEnds), its
  // register's next opening or count past the dates or, for a drawer never counted, its last
  // row, which may lie inside the dates (its last movement days after the opening).
  const open = [...registers.values()].filter(
    (r) => String(r.marks[r.marks.length - 1].kind) === rule.opens,
  );
  const ends = await sessionEnds(
    { ...rule, table: source.table, time: source.time },
    open.map((r) => ({
      values: r.values,
      after: { time: end },
      opened: String(r.marks[r.marks.length - 1].t),
    })),
    db,
  );
  open.forEach((r, i) => r.marks.push({ kind: ends[i] ? rule.closes : null, t: ends[i] }));
  for (const { marks: rows } of registers.values()) {
    rows.forEach((row, i) => {
      if (String(row.kind) !== rule.opens || i + 1 >= rows.length) return;
      const range = ranges.get(String(row.t).slice(0, 10))!;
      const after = rows[i + 1].t;
      // A session with no row after its opening: nothing to extend.
      if (after !== null && range.to !== null && justAfter(after) > range.to) {
        range.to = justAfter(after);
      }
    });
  }
  return ranges;
}
