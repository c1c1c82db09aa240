import type { BusinessDates } from '../../common/query/filter-parameters';
import type { Source } from '../../catalogue/source';
import { businessDateSql } from './business-date-range';
import { selectedValues } from './derived-columns';

export interface KeysetBounds {
  /** Inclusive lower bound, stored form. */
  from: string | null;
  /** Exclusive upper bound, stored form. */
  to: string | null;
  /** Position after which the page starts. */
  after: { time: string; id: string } | null;
  limit: number;
  /** Only rows whose business date is in these, where SQL can tell it (business-date-range.ts). */
  businessDates?: BusinessDates | null;
}

export interface SqlQuery {
  sql: string;
  params: unknown[];
}

const selects = new WeakMap<Source<unknown>, string>();

/**
 * The SELECT list of a source's columns over the table aliased `x`, its derived columns after
 * its own (sql/derived-columns.ts), built once per source.
 */
export function selectOf(source: Source<unknown>): string {
  let select = selects.get(source);
  if (select === undefined) {
    select = selectedValues(source)
      .map(({ name, sql, id }) =>
        id ? `CAST(${sql} AS CHAR) AS ${name}` : sql === `x.${name}` ? sql : `${sql} AS ${name}`,
      )
      .join(', ');
    selects.set(source, select);
  }
  return select;
}

/**
 * Conditions of one shop's keyset range, written so MySQL uses (shop_code, t, id) for all of it,
 * and the values the source's rows hold (`only`: columns compared with bound values).
 */
export function shopRange(
  t: string,
  shop: string,
  bounds: KeysetBounds,
  alias: string,
  only: Readonly<Record<string, string>> = {},
  businessDate: string | null = null,
): SqlQuery {
  const conditions = [`${alias}.shop_code = ?`];
  const params: unknown[] = [shop];
  for (const [column, value] of Object.entries(only)) {
    conditions.push(`${alias}.${column} = ?`);
    params.push(value);
  }
  if (businessDate !== null && bounds.businessDates) {
    conditions.push(`${businessDate} >= ?`, `${businessDate} < ?`);
    params.push(bounds.businessDates.from, bounds.businessDates.to);
  }
  if (bounds.from !== null) {
    conditions.push(`${alias}.${t} >= ?`);
    params.push(bounds.from);
  }
  if (bounds.to !== null) {
    conditions.push(`${alias}.${t} < ?`);
    params.push(bounds.to);
  }
  if (bounds.after) {
    // Not a row constructor: MySQL may use only part of the index for (t, id) > (?, ?).
    // The separate `t >= ?` gives SQLite's planner a lower bound for its index range too;
    // without it SQLite scans from From (or the shop's first row) on every page.
    conditions.push(`${alias}.${t} >= ?`);
    conditions.push(`(${alias}.${t} > ? OR (${alias}.${t} = ? AND ${alias}.id > ?))`);
    params.push(bounds.after.time, bounds.after.time, bounds.after.time, BigInt(bounds.after.id));
  }
  return { sql: conditions.join(' AND '), params };
}

/**
 * The SQL of one page: `limit + 1` rows in (t, id) order, never OFFSET, so any page costs what the
 * first does. One shop: a single index range. Several shops: each shop's first `limit + 1` keys
 * from its own index range, merged, then the rows of the page are read by primary key.
 */
export function buildKeysetQuery(
  resource: Source<unknown>,
  shops: readonly string[],
  bounds: KeysetBounds,
): SqlQuery {
  const t = resource.time;
  const select = selectOf(resource);
  const take = bounds.limit + 1;
  const keyset = `x.${t} AS k_t, CAST(x.id AS CHAR) AS k_id`;
  if (shops.length === 1) {
    const range = shopRange(
      t,
      shops[0],
      bounds,
      'x',
      resource.only,
      businessDateSql(resource, 'x'),
    );
    return {
      sql: `SELECT ${select}, ${keyset} FROM ${resource.table} x WHERE ${range.sql} ORDER BY x.${t}, x.id LIMIT ?`,
      params: [...range.params, take],
    };
  }
  const members: string[] = [];
  const params: unknown[] = [];
  shops.forEach((shop, i) => {
    const range = shopRange(t, shop, bounds, 's', resource.only, businessDateSql(resource, 's'));
    members.push(
      `SELECT id, k FROM (SELECT s.id AS id, s.${t} AS k FROM ${resource.table} s WHERE ${range.sql} ORDER BY s.${t}, s.id LIMIT ?) m${i}`,
    );
    params.push(...range.params, take);
  });
  return {
    sql:
      `SELECT ${select}, ${keyset} FROM (${members.join(' UNION ALL ')} ORDER BY k, id LIMIT ?) p ` +
      `JOIN ${resource.table} x ON x.id = p.id ORDER BY x.${t}, x.id`,
    params: [...params, take],
  };
}
