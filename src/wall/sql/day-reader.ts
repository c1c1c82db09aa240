import { type BusinessDates, nextDate } from '../../common/query/filter-parameters';
import type { SqlReader } from '../../database/sql-reader';
import { type AttachedRows, selectList, type Source } from '../../catalogue/source';
import { attachTo } from './attached-reader';
import { businessDateSql, inBusinessDates, readBusinessDateRange } from './business-date-range';
import {
  EMPTY_PART,
  fingerprintOf,
  fingerprintPart,
  ROW_HASH,
  rowHash,
  sourceRowHash,
} from './day-fingerprint';
import { selectOf, type SqlQuery } from './keyset-query';
import { readSessionDates, sessionPart } from './session-dates';
import { typedRows } from './typed-rows';

/** A half-open period of the source's `time` column, in stored form: one date of a digest. */
export interface DayBounds {
  /** Inclusive: the date's midnight. */
  from: string;
  /** Exclusive: the next date's midnight. */
  to: string;
}

/**
 * The shops' condition and the period's, over the source's table aliased `x`, and the business
 * dates' where SQL can tell a row's (`date`: business-date-range.ts).
 */
function inPeriod(
  time: string,
  shops: readonly string[],
  day: DayBounds,
  date: { sql: string | null; dates: BusinessDates } | null = null,
): SqlQuery {
  const where = {
    sql: `x.shop_code IN (${shops.map(() => '?').join(', ')}) AND x.${time} >= ? AND x.${time} < ?`,
    params: [...shops, day.from, day.to],
  };
  if (date?.sql) {
    where.sql += ` AND ${date.sql} >= ? AND ${date.sql} < ?`;
    where.params.push(date.dates.from, date.dates.to);
  }
  return where;
}

/**
 * The rows of `attached` whose parent row lies in the period, by a join on the parents' own
 * (shop_code, time, id) index range: no id list, whatever the day holds. In parent id, then
 * `orderBy`, order.
 */
function attachedInPeriod(
  source: Source<unknown>,
  attached: AttachedRows,
  where: SqlQuery,
): SqlQuery {
  const order = [attached.parentId, ...attached.orderBy].map((c) => `c.${c}`).join(', ');
  const hash = `, ${rowHash(attached.columns, 'c')} AS ${ROW_HASH}`;
  return {
    sql:
      `SELECT ${attached.distinct ? 'DISTINCT ' : ''}${selectList(attached.columns, 'c')}${hash} ` +
      `FROM ${attached.table} c JOIN ${source.table} x ON x.id = c.${attached.parentId} ` +
      `WHERE ${where.sql} ORDER BY ${order}`,
    params: where.params,
  };
}

/**
 * Every row of the shops in one period (a digest's date), in ascending numeric id order, each
 * with the rows its source attaches, and the fingerprint of exactly these rows: each statement
 * also selects every row's hash (`row_hash`, day-fingerprint.ts), which the mapping never reads,
 * hashed here in the order read, as the grouped statements concatenate them in the same key
 * order. One statement for the rows, one per attachment, both on
 * `db` (one replica, or the primary: one state of the data). No LIMIT, so MySQL never trades the
 * (shop_code, time, id) range for a walk of the primary key; the period is one day, which is what
 * a digest holds at a time. No shop answers nothing without a query.
 *
 * Inside the wall: it takes a list of shops, so only the Wall calls it, with the shops of
 * the caller's claims.
 */
export async function readDay<R extends { id: string }>(
  source: Source<R>,
  shops: readonly string[],
  day: DayBounds,
  db: SqlReader,
  dates: BusinessDates | null = null,
): Promise<{ rows: R[]; fingerprint: string }> {
  const none = fingerprintOf([EMPTY_PART, ...source.attached.map(() => EMPTY_PART)]);
  if (shops.length === 0) return { rows: [], fingerprint: none };
  const date = dates ? { sql: businessDateSql(source, 'x'), dates } : null;
  const where = inPeriod(source.time, shops, day, date);
  const read = await db.query(
    `SELECT ${selectOf(source)}, ${sourceRowHash(source)} AS ${ROW_HASH} ` +
      `FROM ${source.table} x WHERE ${where.sql} ORDER BY x.id`,
    where.params,
  );
  const parts = [fingerprintPart(read.map((row) => String(row[ROW_HASH])))];
  const rows = typedRows(source, read);
  if (rows.length === 0) return { rows, fingerprint: none };
  const sessions = sessionPart(await readSessionDates(source, rows, db));
  for (const attached of source.attached) {
    await attachTo(rows, attached, async () => {
      const { sql, params } = attachedInPeriod(source, attached, where);
      const children = await db.query(sql, params);
      parts.push(fingerprintPart(children.map((child) => String(child[ROW_HASH]))));
      return children;
    });
  }
  return { rows, fingerprint: fingerprintOf(parts, sessions) };
}

/** Past any stored date-time: the end of a range left open by a session still open. */
const END_OF_TIME = '9999-12-31 23:59:59.999';

/**
 * Every row of the shops whose business date is `date` (a digest by business date), in
 * ascending id order with what the source attaches: the rows of the date's time range
 * (business-date-range.ts), those of other dates left out. No fingerprint: such a digest is
 * computed at each request, never cached. Inside the wall, as readDay.
 */
export async function readBusinessDay<R extends { id: string }>(
  source: Source<R>,
  shops: readonly string[],
  date: string,
  db: SqlReader,
): Promise<R[]> {
  const dates = { from: date, to: nextDate(date) };
  const range = await readBusinessDateRange(source, shops, dates, db);
  if (range === null) return [];
  const period = { from: range.from, to: range.to ?? END_OF_TIME };
  const { rows } = await readDay(source, shops, period, db, dates);
  return rows.filter((row) => inBusinessDates(source, row, dates));
}
