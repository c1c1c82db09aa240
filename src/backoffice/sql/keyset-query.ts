import { type Columns, selectList, type Source } from '../source';
import { statementText } from './statement-texts';

export interface KeysetBounds {
  /** Inclusive lower bound, stored form. */
  from: string | null;
  /** Exclusive upper bound, stored form. */
  to: string | null;
  /** Position after which the page starts. */
  after: { time: string; id: string } | null;
  limit: number;
}

export interface SqlQuery {
  sql: string;
  params: unknown[];
}

const selects = new WeakMap<Columns, string>();

/** The SELECT list of a source's columns over the table aliased `x`, built once per source. */
export function selectOf(source: Source<unknown>): string {
  let select = selects.get(source.columns);
  if (select === undefined) {
    select = selectList(source.columns, 'x');
    selects.set(source.columns, select);
  }
  return select;
}

/** The values of shopRange's conditions, in their order, appended to `params`. */
function pushRangeParams(params: unknown[], shop: string, bounds: KeysetBounds): void {
  params.push(shop);
  if (bounds.from !== null) params.push(bounds.from);
  if (bounds.to !== null) params.push(bounds.to);
  if (bounds.after) {
    params.push(bounds.after.time, bounds.after.time, bounds.after.time, BigInt(bounds.after.id));
  }
}

/** The conditions of shopRange, whose text depends only on which bounds are set. */
function rangeConditions(t: string, bounds: KeysetBounds, alias: string): string {
  const conditions = [`${alias}.shop_code = ?`];
  if (bounds.from !== null) conditions.push(`${alias}.${t} >= ?`);
  if (bounds.to !== null) conditions.push(`${alias}.${t} < ?`);
  if (bounds.after) {
    // Not a row constructor: MySQL may use only part of the index for (t, id) > (?, ?).
    // The separate `t >= ?` gives SQLite's planner a lower bound for its index range too;
    // without it SQLite scans from From (or the shop's first row) on every page.
    conditions.push(`${alias}.${t} >= ?`);
    conditions.push(`(${alias}.${t} > ? OR (${alias}.${t} = ? AND ${alias}.id > ?))`);
  }
  return conditions.join(' AND ');
}

/** Conditions of one shop's keyset range, written so MySQL uses (shop_code, t, id) for all of it. */
export function shopRange(t: string, shop: string, bounds: KeysetBounds, alias: string): SqlQuery {
  const params: unknown[] = [];
  pushRangeParams(params, shop, bounds);
  return { sql: rangeConditions(t, bounds, alias), params };
}

/** What a page's statement text depends on besides its source: the shops' count, the bounds set. */
function keysetShape(shops: readonly string[], bounds: KeysetBounds): number {
  const set =
    (bounds.from !== null ? 1 : 0) | (bounds.to !== null ? 2 : 0) | (bounds.after ? 4 : 0);
  return shops.length * 8 + set;
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
  const take = bounds.limit + 1;
  const params: unknown[] = [];
  for (const shop of shops) {
    pushRangeParams(params, shop, bounds);
    if (shops.length > 1) params.push(take);
  }
  params.push(take);
  // The same text, the same string object, for every page of this shape (statement-texts.ts).
  const sql = statementText(resource, keysetShape(shops, bounds), () =>
    keysetText(resource, shops.length, bounds),
  );
  return { sql, params };
}

function keysetText(resource: Source<unknown>, shopCount: number, bounds: KeysetBounds): string {
  const t = resource.time;
  const select = selectOf(resource);
  const keyset = `x.${t} AS k_t, CAST(x.id AS CHAR) AS k_id`;
  if (shopCount === 1) {
    const range = rangeConditions(t, bounds, 'x');
    return `SELECT ${select}, ${keyset} FROM ${resource.table} x WHERE ${range} ORDER BY x.${t}, x.id LIMIT ?`;
  }
  const range = rangeConditions(t, bounds, 's');
  const members = Array.from(
    { length: shopCount },
    (_, i) =>
      `SELECT id, k FROM (SELECT s.id AS id, s.${t} AS k FROM ${resource.table} s WHERE ${range} ORDER BY s.${t}, s.id LIMIT ?) m${i}`,
  );
  return (
    `SELECT ${select}, ${keyset} FROM (${members.join(' UNION ALL ')} ORDER BY k, id LIMIT ?) p ` +
    `JOIN ${resource.table} x ON x.id = p.id ORDER BY x.${t}, x.id`
  );
}
