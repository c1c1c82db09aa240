import type { SqlQuery } from './keyset-query';

/**
 * The one statement of an arrival poll of `table`: a UNION ALL of up to three parts, each row a
 * `shop_code` (NULL for the first) and its highest id as `top`:
 * - the table's highest id (the primary key's last entry): the high-water mark of the next poll;
 * - the highest id of each shop with rows above the previous mark `high` (a primary-key range
 *   over what arrived since the last poll: cheap with or without `(shop_code, id)`);
 * - the highest id of each shop of `seeding`, brought by a new waiter (once per shop while it is
 *   waited on), so a row committed between the waiter's read and its registration is not missed.
 * The table name is one of the service's constants, never a request's value.
 */
export function arrivalPollQuery(
  table: string,
  high: bigint | null,
  seeding: readonly string[],
): SqlQuery {
  const top = 'CAST(MAX(id) AS CHAR) AS top';
  const parts: SqlQuery[] = [{ sql: `SELECT NULL AS shop_code, ${top} FROM ${table}`, params: [] }];
  if (high !== null) {
    parts.push({
      sql: `SELECT shop_code, ${top} FROM ${table} WHERE id > ? GROUP BY shop_code`,
      params: [high],
    });
  }
  if (seeding.length > 0) {
    parts.push({
      sql:
        `SELECT shop_code, ${top} FROM ${table} ` +
        `WHERE shop_code IN (${seeding.map(() => '?').join(', ')}) GROUP BY shop_code`,
      params: [...seeding],
    });
  }
  return {
    sql: parts.map((p) => p.sql).join(' UNION ALL '),
    params: parts.flatMap((p) => p.params),
  };
}
