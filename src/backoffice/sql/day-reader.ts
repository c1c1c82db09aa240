import type { SqlReader } from '../../database/sql-reader';
import { type AttachedRows, selectList, type Source } from '../source';
import { attachTo } from './attached-reader';
import { fingerprintPart, ROW_HASH, rowHash, sourceRowHash } from './day-fingerprint';
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

/** The shops' condition and the period's, over the source's table aliased `x`. */
function inPeriod(time: string, shops: readonly string[], day: DayBounds): SqlQuery {
  return {
    sql: `x.shop_code IN (${shops.map(() => '?').join(', ')}) AND x.${time} >= ? AND x.${time} < ?`,
    params: [...shops, day.from, day.to],
  };
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
 * summed here as the grouped statements sum them. One statement for the rows, one per attachment, both on
 * `db` (one replica, or the primary: one state of the data). No LIMIT, so MySQL never trades the
 * (shop_code, time, id) range for a walk of the primary key; the period is one day, which is what
 * a digest holds at a time. No shop answers nothing without a query.
 *
 * Inside the wall: it takes a list of shops, so only ShopScopedReader calls it, with the shops of
 * the caller's claims.
 */
export async function readDay<R extends { id: string }>(
  source: Source<R>,
  shops: readonly string[],
  day: DayBounds,
  db: SqlReader,
): Promise<{ rows: R[]; fingerprint: string }> {
  const none = source.attached.map(() => '0:0');
  if (shops.length === 0) return { rows: [], fingerprint: ['0:0', ...none].join('/') };
  const where = inPeriod(source.time, shops, day);
  const read = await db.query(
    `SELECT ${selectOf(source)}, ${sourceRowHash(source)} AS ${ROW_HASH} ` +
      `FROM ${source.table} x WHERE ${where.sql} ORDER BY x.id`,
    where.params,
  );
  const parts = [fingerprintPart(read.map((row) => row[ROW_HASH] as number))];
  const rows = typedRows(source, read);
  if (rows.length === 0) return { rows, fingerprint: ['0:0', ...none].join('/') };
  const sessions = sessionPart(await readSessionDates(source, rows, db));
  for (const attached of source.attached) {
    await attachTo(rows, attached, async () => {
      const { sql, params } = attachedInPeriod(source, attached, where);
      const children = await db.query(sql, params);
      parts.push(fingerprintPart(children.map((child) => child[ROW_HASH] as number)));
      return children;
    });
  }
  return { rows, fingerprint: parts.join('/') + sessions };
}
