import type { Row, SqlReader } from '../../database/sql-reader';
import { type AttachedRows, selectList, type Source } from '../../catalogue/source';
import type { SqlQuery } from './keyset-query';
import { readSessionDates } from './session-dates';

/** The rows of `attached` whose parent is one of `ids`, in parent then `orderBy` order. */
function attachedQuery(attached: AttachedRows, ids: readonly bigint[]): SqlQuery {
  const order = [attached.parentId, ...attached.orderBy].map((c) => `c.${c}`).join(', ');
  return {
    sql:
      `SELECT ${attached.distinct ? 'DISTINCT ' : ''}${selectList(attached.columns, 'c')} ` +
      `FROM ${attached.table} c WHERE c.${attached.parentId} IN (${ids.map(() => '?').join(', ')})` +
      (attached.orderBy.length > 0 ? ` ORDER BY ${order}` : ''),
    params: [...ids],
  };
}

/**
 * Gives each row of a slice the rows its source attaches (a sale's lines): one query per
 * attachment for the whole slice, through the slice's own reader. The parents are the slice's
 * own rows (read through the caller's scope): no id comes from outside. Then its session dates
 * (sql/session-dates.ts), the derived columns the wall computes after the read: one query when
 * the source has any.
 */
export async function readAttached<R extends { id: string }>(
  source: Source<R>,
  rows: R[],
  db: SqlReader,
): Promise<R[]> {
  if (rows.length > 0) await readSessionDates(source, rows, db);
  return attachRows(source, rows, db);
}

/**
 * The attached rows alone, for a slice whose session dates are already read (a list page by
 * business date filters on them): reading them again would cost a statement for the same dates.
 */
export async function attachRows<R extends { id: string }>(
  source: Source<R>,
  rows: R[],
  db: SqlReader,
): Promise<R[]> {
  if (rows.length === 0 || source.attached.length === 0) return rows;
  const ids = rows.map((row) => BigInt(row.id));
  for (const attached of source.attached) {
    await attachTo(rows, attached, () => {
      const { sql, params } = attachedQuery(attached, ids);
      return db.query(sql, params);
    });
  }
  return rows;
}

/**
 * Gives each of `rows` its children of `attached` (an empty array when none), from `read`: the
 * children of those rows, in order. A child whose parent is not among `rows` (committed after
 * the parents' read) is left out.
 */
export async function attachTo<R extends { id: string }>(
  rows: R[],
  attached: AttachedRows,
  read: () => Promise<Row[]>,
): Promise<void> {
  const byId = new Map<string, Row[]>();
  for (const row of rows) {
    const children: Row[] = [];
    (row as Record<string, unknown>)[attached.as] = children;
    byId.set(row.id, children);
  }
  for (const child of await read()) {
    byId.get(String(child[attached.parentId]))?.push(child);
  }
}
