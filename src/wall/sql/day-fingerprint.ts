import { createHash } from 'node:crypto';
import type { Row, SqlDialect, SqlReader } from '../../database/sql-reader';
import type { Columns, Source } from '../../catalogue/source';
import { selectedValues } from './derived-columns';
import { readSessionParts } from './session-dates';

/**
 * What a digest's records are built from, per date, computed by the database (issues 45, 57):
 * for the source's rows of the date, and for the rows of each attachment whose parent lies in
 * the date, the count and the SHA-256 of the rows' own SHA-256 hashes concatenated in key order
 * (the source's id; the attachment's parent id then its order columns, the order the day's read
 * returns them in). A row's hash is SHA-256 of every declared column, derived ones included, each
 * written with `QUOTE` (injective: NULL is the bare word, a text is quoted with its quotes
 * escaped, so NULL, '' and 'NULL' differ) and joined by commas (a comma inside a value is inside
 * its quotes). The columns are the source's declaration, the same that its SELECT and its
 * mapping read, so a new field is in the fingerprint the day it is declared.
 *
 * Not a sum or an XOR of row hashes: those are linear, and a change to many rows at once can be
 * chosen to cancel (a generalised birthday search). To give a date a stored fingerprint, an edit
 * must find a SHA-256 collision. docs/sync.md, "The digests' cache".
 *
 * One statement per table, grouped by date over the (shop_code, time, id) index range, run at
 * once: one small row per date that has rows. A date without rows has no fingerprint (its digest
 * is the empty one, without a read). MySQL/MariaDB concatenate with `GROUP_CONCAT`, whose result
 * they truncate silently at `group_concat_max_len`: each statement raises it for itself
 * (MAX_CONCAT_BYTES) and reads back the limit it ran under, and a date whose rows would not fit
 * gets no fingerprint (null: read and hashed at each digest, never answered from the cache).
 * SQLite has no SHA2 and no ordered concatenation: database/sqlite-functions.ts registers both.
 */
export type DayFingerprints = ReadonlyMap<string, string | null>;

/** Bytes each row adds to its date's concatenation: its SHA-256, unhexed. */
const ROW_HASH_BYTES = 32;

/**
 * The limit each fingerprint statement sets on MySQL/MariaDB for its `GROUP_CONCAT` (bytes): 16
 * MiB, 524,288 rows of one table, one shop and one date. The benchmark's busiest shop has at most
 * 3,048 lines a day, and 182,241 in 92 days: a whole quarter of its lines on one date fits 2.9
 * times. It is also MariaDB's default `max_allowed_packet`, which bounds a string result too
 * (MySQL 8's is 64 MiB). The memory is the rows' own (32 bytes each), not the limit.
 */
export const MAX_CONCAT_BYTES = 16 * 1024 * 1024;

/** The fingerprints' scheme, the first part of each: an entry of another scheme never matches. */
const FINGERPRINT_SCHEME = 'sha256';

const rowHashes = new WeakMap<Columns, Map<string, string>>();

const hashOf = (values: readonly string[]): string =>
  `SHA2(CONCAT_WS(',', ${values.map((value) => `QUOTE(${value})`).join(', ')}), 256)`;

/**
 * An attached row's hash: SHA-256 (hex) of every declared column, QUOTEd, joined by commas. Built
 * once per declaration and alias: every date of every digest selects it.
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

/**
 * A fingerprint's part: `count:digest` of one table's row hashes (hex), in the order given, as
 * the grouped statements compute it: SHA-256 of their bytes concatenated.
 */
export function fingerprintPart(hashes: ReadonlyArray<string>): string {
  const digest = createHash('sha256');
  for (const hash of hashes) digest.update(Buffer.from(hash, 'hex'));
  return `${hashes.length}:${digest.digest('hex')}`;
}

/** The part of a table without rows on the date. */
export const EMPTY_PART = fingerprintPart([]);

/** A date's fingerprint from its parts (the source's, then each attachment's) and session part. */
export const fingerprintOf = (parts: readonly string[], sessions = ''): string =>
  [FINGERPRINT_SCHEME, ...parts].join('/') + sessions;

/** The ordered concatenation's digest of `hash` over a group, in `order`, on each engine. */
function concatenated(dialect: SqlDialect, hash: string, order: string): string {
  return dialect === 'mysql'
    ? `SHA2(GROUP_CONCAT(UNHEX(${hash}) ORDER BY ${order} SEPARATOR ''), 256)`
    : `SHA2_CONCAT(UNHEX(${hash}) ORDER BY ${order})`;
}

/**
 * MySQL/MariaDB: the statement's own `group_concat_max_len` (MariaDB's `SET STATEMENT`, in a
 * comment only MariaDB runs; MySQL's `SET_VAR` hint, a comment to MariaDB), and the limit it ran
 * under, selected beside each date: the session's, whatever raised it, and the packet size.
 */
const RAISED = {
  mysql: {
    before: `/*M!100102 SET STATEMENT group_concat_max_len = ${MAX_CONCAT_BYTES} FOR */ `,
    hint: `/*+ SET_VAR(group_concat_max_len = ${MAX_CONCAT_BYTES}) */ `,
    limit: 'LEAST(@@SESSION.group_concat_max_len, @@SESSION.max_allowed_packet)',
  },
  sqlite: { before: '', hint: '', limit: 'NULL' },
} as const;

/** The statements of a source's fingerprints: its own rows, then one per attachment. */
export function fingerprintStatements(source: Source<unknown>, dialect: SqlDialect): string[] {
  const { before, hint, limit } = RAISED[dialect];
  const where = `x.shop_code IN (%SHOPS%) AND x.${source.time} >= ? AND x.${source.time} < ?`;
  const day = `DATE(x.${source.time})`;
  const select = (hash: string, order: string) =>
    `${before}SELECT ${hint}${day} AS day, COUNT(*) AS n, ` +
    `${concatenated(dialect, hash, order)} AS h, ${limit} AS cap `;
  const own =
    select(sourceRowHash(source), 'x.id') + `FROM ${source.table} x WHERE ${where} GROUP BY ${day}`;
  const attached = source.attached.map(
    (a) =>
      select(
        rowHash(a.columns, 'c'),
        [a.parentId, ...a.orderBy].map((column) => `c.${column}`).join(', '),
      ) +
      `FROM ${a.table} c JOIN ${source.table} x ON x.id = c.${a.parentId} ` +
      `WHERE ${where} GROUP BY ${day}`,
  );
  return [own, ...attached];
}

/**
 * A grouped row's part, or null when its digest cannot be trusted: absent (NULL), or over a
 * concatenation longer than the limit it ran under (MySQL truncates it with a warning only).
 */
export function partOf(row: Row, dialect: SqlDialect): string | null {
  const [n, h] = [Number(row.n), row.h];
  if (typeof h !== 'string' || !/^[0-9a-f]{64}$/.test(h)) return null;
  if (dialect === 'mysql' && !(n * ROW_HASH_BYTES <= Number(row.cap))) return null;
  return `${n}:${h}`;
}

const statements = new Map<SqlDialect, WeakMap<Source<unknown>, string[]>>([
  ['mysql', new WeakMap()],
  ['sqlite', new WeakMap()],
]);

/**
 * The fingerprint of every date of `period` that has rows of `shops` in `source`: date
 * (`YYYY-MM-DD`) → the scheme, `count:digest` of the rows, then of each attachment's rows, and
 * the session part, joined by `/`; null for a date whose rows a statement could not concatenate
 * whole. On `db`'s engine (its `dialect`). Inside the wall, as readDay: only the Wall calls it,
 * with the caller's shops.
 */
export async function readFingerprints(
  source: Source<unknown>,
  shops: readonly string[],
  period: { from: string; to: string },
  db: SqlReader,
): Promise<DayFingerprints> {
  if (shops.length === 0) return new Map();
  const dialect = db.dialect;
  if (dialect === undefined) throw new TypeError('day fingerprints: the reader names no dialect');
  const cached = statements.get(dialect)!;
  let sqls = cached.get(source);
  if (!sqls) cached.set(source, (sqls = fingerprintStatements(source, dialect)));
  const marks = shops.map(() => '?').join(', ');
  const params = [...shops, period.from, period.to];
  const parts = new Map<string, Array<string | null>>();
  // The statements at once, on as many connections: the answer waits for the longest only.
  const [sessions, ...results] = await Promise.all([
    readSessionParts(source, shops, period, db),
    ...sqls.map((sql) => db.query(sql.replace('%SHOPS%', marks), params)),
  ]);
  for (const [i, result] of results.entries()) {
    for (const row of result) {
      const day = String(row.day).slice(0, 10);
      let of = parts.get(day);
      if (!of) parts.set(day, (of = sqls.map(() => EMPTY_PART)));
      of[i] = partOf(row, dialect);
    }
  }
  const whole = (of: Array<string | null>): of is string[] => of.every((part) => part !== null);
  return new Map(
    [...parts].map(([day, of]) => [day, whole(of) ? fingerprintOf(of, sessions.get(day)) : null]),
  );
}
