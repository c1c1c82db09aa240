import type { SqlReader } from '../../database/sql-reader';
import { sqlMarker, sqlName } from './derived-columns';

/** A session rule's columns: its partition (shop first), its marker and the marker's values. */
export interface SessionMarks {
  table: string;
  time: string;
  partition: readonly string[];
  marker: string;
  opens: string;
  closes: string;
}

/** A partition's values, and the position after which its session's end is looked for. */
export interface OpenPartition {
  values: string[];
  /** With an id: strictly after (time, id); without: at or after `time`. */
  after: { time: string; id?: string };
  /**
   * When the session opened (stored time), if before `after`: its partition's last row ends it
   * when at or after this, even before `after` (default: `after.time`).
   */
  opened?: string;
}

/**
 * Where each open session ends at the latest, stored time: its partition's next opening or
 * closing row after the position, or, with none (a drawer never counted nor opened again), the
 * partition's last row: no row of the session comes later. Null: the partition has no row after
 * the position. Two statements of a member per partition, every value bound: the next mark by
 * the (shop_code, time, id) index, the last row by the partition's own index (the foreign key's
 * (shop_code, register_code)), so a walk or a range never runs to the end of the shop's rows for
 * a session that never ends (issue 54).
 */
export async function sessionEnds(
  marks: SessionMarks,
  partitions: readonly OpenPartition[],
  db: SqlReader,
): Promise<Array<string | null>> {
  if (partitions.length === 0) return [];
  const [t, table, marker] = [sqlName(marks.time), sqlName(marks.table), sqlName(marks.marker)];
  const same = marks.partition.map((c) => `d.${sqlName(c)} = ?`).join(' AND ');
  const kinds = `${sqlMarker(marks.opens)}, ${sqlMarker(marks.closes)}`;
  const next = await db.query(
    partitions
      .map(
        ({ after }, i) =>
          `SELECT ${i} AS p, a.t FROM (SELECT d.${t} AS t FROM ${table} d WHERE ${same} ` +
          `AND d.${marker} IN (${kinds}) AND d.${t} >= ?` +
          (after.id === undefined ? '' : ` AND (d.${t} > ? OR d.id > ?)`) +
          ` ORDER BY d.${t}, d.id LIMIT 1) a`,
      )
      .join(' UNION ALL '),
    partitions.flatMap(({ values, after }) =>
      after.id === undefined
        ? [...values, after.time]
        : [...values, after.time, after.time, after.id],
    ),
  );
  const ends: Array<string | null> = partitions.map(
    (_, i) => (next.find((row) => Number(row.p) === i)?.t as string | undefined) ?? null,
  );
  const unmarked = partitions.flatMap((p, i) => (ends[i] === null ? [{ ...p, i }] : []));
  if (unmarked.length === 0) return ends;
  const last = await db.query(
    unmarked
      .map(({ i }) => `SELECT ${i} AS p, MAX(d.${t}) AS t FROM ${table} d WHERE ${same}`)
      .join(' UNION ALL '),
    unmarked.flatMap(({ values }) => values),
  );
  for (const row of last) {
    const at = Number(row.p);
    const time = row.t === null || row.t === undefined ? null : String(row.t);
    // The last row is the session's only if it comes after the position (or its opening).
    const from = partitions[at].opened ?? partitions[at].after.time;
    if (time !== null && time >= from) ends[at] = time;
  }
  return ends;
}
