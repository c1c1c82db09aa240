import { createHash } from 'node:crypto';
import type { Row, SqlDialect, SqlReader } from '../../database/sql-reader';
import type { Derivation, Source } from '../../catalogue/source';
import { sqlMarker, sqlName } from './derived-columns';
import type { SqlQuery } from './keyset-query';

type SessionRule = Extract<Derivation, { kind: 'sessionDate' }>;

/** An opening or closing row of a partition: what decides the session of the rows after it. */
interface Boundary {
  kind: string;
  time: string;
  id: bigint;
}

/** The session-date columns of a source, with their rule; most sources have none. */
function sessionColumns(source: Source<unknown>): Array<[string, SessionRule]> {
  return Object.entries(source.derived).flatMap(([name, c]) =>
    c.derivation?.kind === 'sessionDate' ? [[name, c.derivation] as [string, SessionRule]] : [],
  );
}

/** Whether `a` comes before `b` in (time, id) order. */
const before = (a: { time: string; id: bigint }, b: { time: string; id: bigint }) =>
  a.time < b.time || (a.time === b.time && a.id < b.id);

const partitionOf = (row: Record<string, unknown>, rule: SessionRule) =>
  rule.partition.map((c) => String(row[c])).join('\u0000');

/**
 * The backward walk's table aliased `d`, with MySQL/MariaDB told its index (decision 55.4.2):
 * filtering on columns outside it (the marker, the register), their planner reads the shop's rows
 * from its first and sorts them instead of walking the index back from the position.
 */
function walkedTable(rule: SessionRule, table: string, dialect: SqlDialect | undefined): string {
  return dialect === 'mysql' ? `${table} d FORCE INDEX (${sqlName(rule.index)})` : `${table} d`;
}

/** The SQL pieces of a rule over its source's table, checked once. */
function pieces(source: Source<unknown>, rule: SessionRule) {
  const t = sqlName(source.time);
  const marker = sqlName(rule.marker);
  const kinds = `${sqlMarker(rule.opens)}, ${sqlMarker(rule.closes)}`;
  const same = rule.partition.map((c) => `d.${sqlName(c)} = ?`).join(' AND ');
  const select = `d.${marker} AS kind, d.${t} AS t, CAST(d.id AS CHAR) AS id`;
  return { t, marker, kinds, same, select, table: sqlName(source.table) };
}

/**
 * For each partition (its values, in rule order): the boundaries strictly before `first` (at most
 * one: the latest, found walking the (shop_code, time, id) index backwards from that constant
 * position) and those from `first` to `last` inclusive (one index range). One statement, a UNION
 * ALL of two members per partition, every value bound: each member is a range with constant
 * bounds, which MariaDB seeks (a correlated subquery it does not: it scans the shop's index from
 * its end for every row, docs/database.md).
 */
export function boundariesQuery(
  source: Source<unknown>,
  rule: SessionRule,
  partitions: ReadonlyArray<{ values: string[]; first: Boundary; last: Boundary | null }>,
  dialect: SqlDialect | undefined,
): SqlQuery {
  const { t, marker, kinds, same, select, table } = pieces(source, rule);
  const walked = walkedTable(rule, table, dialect);
  const members: string[] = [];
  const params: unknown[] = [];
  partitions.forEach(({ values, first, last }, i) => {
    members.push(
      `SELECT ${i} AS p, b.kind, b.t, b.id FROM (SELECT ${select} FROM ${walked} WHERE ${same} ` +
        `AND d.${marker} IN (${kinds}) AND d.${t} <= ? AND (d.${t} < ? OR d.id < ?) ` +
        `ORDER BY d.${t} DESC, d.id DESC LIMIT 1) b`,
    );
    params.push(...values, first.time, first.time, first.id);
    if (last) {
      members.push(
        `SELECT ${i} AS p, ${select} FROM ${table} d WHERE ${same} ` +
          `AND d.${marker} IN (${kinds}) AND d.${t} >= ? AND d.${t} <= ?`,
      );
      params.push(...values, first.time, last.time);
    }
  });
  return { sql: members.join(' UNION ALL '), params };
}

const boundaryOf = (row: Row): Boundary => ({
  kind: String(row.kind),
  time: String(row.t),
  id: BigInt(String(row.id)),
});

/** A session's date by the rule: the row's own if it opens one or has no session. */
function sessionDate(rule: SessionRule, kind: string, time: string, previous: Boundary | null) {
  if (kind === rule.opens || previous?.kind !== rule.opens) return time.slice(0, 10);
  return previous.time.slice(0, 10);
}

/**
 * Gives each of `rows` its session-date columns (docs/database.md, "Drawer sessions and business
 * days"): per partition (a shop's register), the latest opening or closing row before the
 * partition's first row of `rows`, and those among its rows' range, in one statement (above);
 * then each row's previous boundary in (time, id) order decides its date. Exact whatever the
 * rows (a list's contiguous page, a feed's page in id order, a digest's day). Answers, per
 * partition key, the boundary before its first row: what a day's fingerprint holds of the rows
 * before it (sessionPart). Inside the wall, on the read's own reader.
 */
export async function readSessionDates(
  source: Source<unknown>,
  read: readonly object[],
  db: SqlReader,
): Promise<Map<string, Boundary | null>> {
  // The rows of a source's read: its columns by name; the session dates are written into them.
  const rows = read as ReadonlyArray<Record<string, unknown>>;
  const firsts = new Map<string, Boundary | null>();
  for (const [name, rule] of sessionColumns(source)) {
    const parts = new Map<string, { values: string[]; first: Boundary; last: Boundary | null }>();
    for (const row of rows) {
      const at = {
        kind: String(row[rule.marker]),
        time: String(row[source.time]),
        id: BigInt(String(row.id)),
      };
      const key = partitionOf(row, rule);
      const part = parts.get(key);
      if (!part)
        parts.set(key, {
          values: rule.partition.map((c) => String(row[c])),
          first: at,
          last: null,
        });
      else if (before(at, part.first)) [part.first, part.last] = [at, part.last ?? part.first];
      else if (!part.last || before(part.last, at)) part.last = at;
    }
    if (parts.size === 0) continue;
    const list = [...parts.entries()];
    const { sql, params } = boundariesQuery(
      source,
      rule,
      list.map(([, part]) => part),
      db.dialect,
    );
    const found = list.map(() => [] as Boundary[]);
    for (const row of await db.query(sql, params)) found[Number(row.p)].push(boundaryOf(row));
    const byPartition = new Map<string, Boundary[]>();
    list.forEach(([key, part], i) => {
      const sorted = found[i].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
      byPartition.set(key, sorted);
      const prior = sorted.filter((b) => before(b, part.first));
      firsts.set(key, prior.length > 0 ? prior[prior.length - 1] : null);
    });
    for (const row of rows) {
      const at = { time: String(row[source.time]), id: BigInt(String(row.id)) };
      const boundaries = byPartition.get(partitionOf(row, rule)) ?? [];
      let previous: Boundary | null = null;
      for (const b of boundaries) {
        if (!before(b, at)) break;
        previous = b;
      }
      row[name] = sessionDate(rule, String(row[rule.marker]), at.time, previous);
    }
  }
  return firsts;
}

/**
 * What a day's fingerprint holds of the rows before the day that its session dates read: per
 * partition with rows on the day, the latest opening or closing row before the day's first row of
 * it (before the day's midnight, then: no row of the partition lies between). The SHA-256 of
 * them in partition order, written as JSON (no separator a value could hold); empty for a source
 * without session dates.
 */
export function sessionPart(firsts: ReadonlyMap<string, Boundary | null>): string {
  if (firsts.size === 0) return '';
  const entries = [...firsts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, b]) => [key, b ? [b.kind, b.time, String(b.id)] : null]);
  return `/s:${createHash('sha256').update(JSON.stringify(entries)).digest('hex')}`;
}

/**
 * The `sessionPart` of every date of a period that has rows of `shops` in `source`: the dates
 * and partitions with rows (one grouped statement), the period's opening and closing rows (one
 * range), and each partition's latest one before the period (one statement of constant ranges,
 * as above); then each date's partitions and the latest boundary before its midnight.
 */
export async function readSessionParts(
  source: Source<unknown>,
  shops: readonly string[],
  period: { from: string; to: string },
  db: SqlReader,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [, rule] of sessionColumns(source).slice(0, 1)) {
    const { t, marker, kinds, table } = pieces(source, rule);
    const cols = rule.partition.map((c) => `x.${sqlName(c)}`).join(', ');
    const where = `x.shop_code IN (${shops.map(() => '?').join(', ')}) AND x.${t} >= ? AND x.${t} < ?`;
    const params = [...shops, period.from, period.to];
    const [days, inside] = await Promise.all([
      db.query(
        `SELECT DISTINCT DATE(x.${t}) AS day, ${cols} FROM ${table} x WHERE ${where}`,
        params,
      ),
      db.query(
        `SELECT ${cols}, x.${marker} AS kind, x.${t} AS t, CAST(x.id AS CHAR) AS id FROM ${table} x ` +
          `WHERE ${where} AND x.${marker} IN (${kinds})`,
        params,
      ),
    ]);
    const partitions = new Map<string, string[]>();
    for (const row of days)
      partitions.set(
        partitionOf(row, rule),
        rule.partition.map((c) => String(row[c])),
      );
    const boundaries = new Map<string, Boundary[]>();
    if (partitions.size > 0) {
      const start = { kind: '', time: period.from, id: 0n };
      const list = [...partitions.entries()];
      const { sql, params: bound } = boundariesQuery(
        source,
        rule,
        list.map(([, values]) => ({ values, first: start, last: null })),
        db.dialect,
      );
      for (const row of await db.query(sql, bound)) {
        boundaries.set(list[Number(row.p)][0], [boundaryOf(row)]);
      }
    }
    for (const row of inside) {
      const key = partitionOf(row, rule);
      boundaries.set(key, [...(boundaries.get(key) ?? []), boundaryOf(row)]);
    }
    const byDay = new Map<string, Map<string, Boundary | null>>();
    for (const row of days) {
      const day = String(row.day).slice(0, 10);
      const key = partitionOf(row, rule);
      const midnight = { time: `${day} 00:00:00.000`, id: 0n };
      let latest: Boundary | null = null;
      for (const b of boundaries.get(key) ?? []) {
        if (before(b, midnight) && (!latest || before(latest, b))) latest = b;
      }
      let of = byDay.get(day);
      if (!of) byDay.set(day, (of = new Map<string, Boundary | null>()));
      of.set(key, latest);
    }
    for (const [day, firsts] of byDay) out.set(day, sessionPart(firsts));
  }
  return out;
}
