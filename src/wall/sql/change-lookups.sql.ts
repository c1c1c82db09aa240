import type { SqlQuery } from './keyset-query';
import { sqlName } from './derived-columns';

/** Values a look-up statement holds at most: a longer transaction is looked up in several. */
export const LOOKUP_CHUNK = 500;

/**
 * The statement of a change source's look-up (sync/changes/dirty-days.ts): the distinct shop and
 * calendar date of `time` of the rows of `table` whose `column` is one of `values` (a sale line's
 * sale by id; a sale's payments by sale_id), on the primary key or the foreign key's index. The
 * names come from the catalogue's declarations, checked as plain names; the values are
 * parameters.
 */
export function changeLookupQuery(
  lookup: { table: string; column: string; time: string },
  values: readonly unknown[],
): SqlQuery {
  const [table, column, time] = [lookup.table, lookup.column, lookup.time].map(sqlName);
  return {
    sql:
      `SELECT DISTINCT x.shop_code AS shop_code, CAST(DATE(x.${time}) AS CHAR) AS day ` +
      `FROM ${table} x WHERE x.${column} IN (${values.map(() => '?').join(', ')})`,
    params: [...values],
  };
}

/**
 * How many of the rows of `table` with these `ids` a committed read shows: the follower's check
 * that an insert it read in the log is visible before it wakes the waiting feeds.
 */
export function visibleRowsQuery(table: string, ids: readonly unknown[]): SqlQuery {
  return {
    sql: `SELECT COUNT(*) AS n FROM ${sqlName(table)} WHERE id IN (${ids.map(() => '?').join(', ')})`,
    params: [...ids],
  };
}
