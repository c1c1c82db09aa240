import { hash } from 'node:crypto';
import type { Row, SqlReader } from '../../database/sql-reader';
import type { AttachedRows, Columns, Source } from '../source';
import { type KeysetBounds, shopRange, type SqlQuery } from './keyset-query';
import type { KeysetSlice } from './keyset-reader';

/**
 * One column's value in the text the row's hash reads: its length in bytes, a colon and the
 * text, or `N` for NULL. A value can never read as NULL, and no two rows of values concatenate
 * to the same text (each value says where it ends).
 */
function encodedColumn(name: string, column: Columns[string], alias: string): string {
  const value = column.id ? `CAST(${alias}.${name} AS CHAR)` : `${alias}.${name}`;
  return `COALESCE(CONCAT(OCTET_LENGTH(${value}), ':', ${value}), 'N')`;
}

/** A row's 64-bit hash in SQL: the first 16 hex digits of the MD5 of its encoded columns. */
function rowHash(columns: Columns, alias: string): string {
  const parts = Object.entries(columns).map(([name, c]) => encodedColumn(name, c, alias));
  // An unsigned integer, not CONV's string: BIT_XOR over a UNION reads a string as a double.
  return `CAST(CONV(LEFT(MD5(CONCAT(${parts.join(', ')})), 16), 16, 10) AS UNSIGNED)`;
}

/** The same hash in JS, of a row as mysql2 returns it (text values, dateStrings, id strings). */
function jsRowHash(columns: Columns, row: Row): bigint {
  let text = '';
  for (const name of Object.keys(columns)) {
    const value = row[name];
    if (value === null || value === undefined) {
      text += 'N';
    } else {
      const s = String(value);
      text += `${Buffer.byteLength(s)}:${s}`;
    }
  }
  return BigInt(`0x${hash('md5', text).slice(0, 16)}`);
}

/** Count and XOR of 64-bit hashes, as the check statement writes them: `count/xor`. */
function fold(hashes: Iterable<bigint>): string {
  let count = 0;
  let xor = 0n;
  for (const h of hashes) {
    count++;
    xor ^= h;
  }
  return `${count}/${xor}`;
}

/** What the check statement answers: one fingerprint of the rows, one per attachment, and more. */
export interface PageFingerprint {
  rows: string;
  attached: string[];
  more: boolean;
}

/**
 * The fingerprint of a page as it was read (the held slice): computed in JS from its rows and
 * the rows attached to them, in the form the check statement answers in.
 */
export function fingerprintOf<R extends { id: string }>(
  source: Source<R>,
  slice: KeysetSlice<R>,
): PageFingerprint {
  const rows = slice.rows as unknown as Row[];
  return {
    rows: fold(rows.map((row) => jsRowHash(source.columns, row))),
    attached: source.attached.map((attached) =>
      fold(
        (function* () {
          for (const row of rows) {
            for (const child of row[attached.as] as unknown as Row[]) {
              yield jsRowHash(attached.columns, child);
            }
          }
        })(),
      ),
    ),
    more: slice.next !== null,
  };
}

/** `(t, id) <= last`, as conditions MySQL runs on the (shop_code, t, id) index range. */
function upTo(t: string, last: { time: string; id: string }, alias: string): SqlQuery {
  return {
    sql: `${alias}.${t} <= ? AND (${alias}.${t} < ? OR (${alias}.${t} = ? AND ${alias}.id <= ?))`,
    params: [last.time, last.time, last.time, BigInt(last.id)],
  };
}

function fingerprintQuery(
  source: Source<unknown>,
  shops: readonly string[],
  bounds: KeysetBounds,
  last: { time: string; id: string },
  attached: AttachedRows | null,
): SqlQuery {
  const members: string[] = [];
  const params: unknown[] = [];
  for (const shop of shops) {
    const range = shopRange(source.time, shop, bounds, 'x');
    const upper = upTo(source.time, last, 'x');
    const from = attached
      ? `${source.table} x JOIN ${attached.table} c ON c.${attached.parentId} = x.id`
      : `${source.table} x`;
    const h = attached ? rowHash(attached.columns, 'c') : rowHash(source.columns, 'x');
    members.push(`SELECT ${h} AS h FROM ${from} WHERE ${range.sql} AND ${upper.sql}`);
    params.push(...range.params, ...upper.params);
  }
  return {
    sql: `(SELECT CONCAT(COUNT(*), '/', COALESCE(BIT_XOR(u.h), 0)) FROM (${members.join(' UNION ALL ')}) u)`,
    params,
  };
}

/**
 * The one statement that says whether the database still holds exactly a page read earlier for
 * `bounds` (decision 29.13): the count and 64-bit hash combination (XOR of each row's MD5-based
 * hash over all its columns) of the rows of the shops' keyset range from the request's position
 * to the page's last key, the same of the rows each attaches (a sale's lines), and whether a row
 * follows the last key (the page's nextCursor). An empty page checks only that none follows the
 * position. One statement: one snapshot on InnoDB.
 */
export function buildPageCheck(
  source: Source<unknown>,
  shops: readonly string[],
  bounds: KeysetBounds,
  last: { time: string; id: string } | null,
): SqlQuery {
  const columns: string[] = [];
  const params: unknown[] = [];
  if (last !== null) {
    for (const attached of [null, ...source.attached]) {
      const q = fingerprintQuery(source, shops, bounds, last, attached);
      columns.push(`${q.sql} AS f${columns.length}`);
      params.push(...q.params);
    }
  }
  const after = last ? { ...bounds, after: last } : bounds;
  const more = shops.map((shop) => {
    const range = shopRange(source.time, shop, after, 'x');
    params.push(...range.params);
    return `EXISTS(SELECT 1 FROM ${source.table} x WHERE ${range.sql})`;
  });
  columns.push(`(${more.join(' OR ')}) AS more`);
  return { sql: `SELECT ${columns.join(', ')}`, params };
}

/**
 * Whether `db` still holds exactly `held`, the slice read earlier for `bounds` (its rows, their
 * values, what they attach, and whether a next page follows): one check statement, compared with
 * the fingerprint of the held rows computed here while the statement runs. Any difference (or a
 * hash the database writes otherwise than the driver's text) answers false: the page is read
 * afresh, never served different.
 */
export async function stillHeld<R extends { id: string }>(
  source: Source<R>,
  shops: readonly string[],
  bounds: KeysetBounds,
  held: KeysetSlice<R>,
  db: SqlReader,
): Promise<boolean> {
  if (shops.length === 0) return false;
  const lastRow = held.rows[held.rows.length - 1] as unknown as Row | undefined;
  const last = lastRow ? { time: String(lastRow.k_t), id: String(lastRow.k_id) } : null;
  const { sql, params } = buildPageCheck(source, shops, bounds, last);
  const answer = db.query(sql, params);
  // Handled when awaited below; this keeps a failure during the hashing from being unhandled.
  answer.catch(() => undefined);
  // Let the statement leave before the hashing takes the thread.
  await new Promise((resolve) => setImmediate(resolve));
  const expected = fingerprintOf(source, held);
  const [found] = await answer;
  if (!found) return false;
  if (Boolean(Number(found.more)) !== expected.more) return false;
  if (last === null) return true;
  return [expected.rows, ...expected.attached].every((f, i) => String(found[`f${i}`]) === f);
}
