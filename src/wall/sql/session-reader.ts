import type { Row, SqlReader } from '../../database/sql-reader';
import { selectList, type SessionRows, type Source } from '../../catalogue/source';
import { shopRange } from './keyset-query';
import type { KeysetPosition } from './keyset-reader';
import { sessionEnds } from './session-ends';

/** Rows a session walk reads per statement. */
export const SESSION_CHUNK = 2_000;

type Position = KeysetPosition;

const after = (a: Position, b: Position): boolean =>
  a.time > b.time || (a.time === b.time && BigInt(a.id) > BigInt(b.id));

/** A row's position in (time, id) order; times are compared in their stored text form. */
const positionOf = (row: Row, time: string): Position => ({
  time: String(row[time]),
  id: String(row.id),
});

/**
 * One statement of a shop's walk: its rows of the table after `from` in (time, id) order, by
 * the (shop_code, time, id) index with bound values only (a correlated subquery per row would
 * walk the shop's whole history on MariaDB, whose range access takes no outer column).
 */
function walkQuery(
  source: Source<unknown>,
  session: SessionRows,
  shop: string,
  from: Position,
  until: string | null,
) {
  const t = source.time;
  const range = shopRange(t, shop, { from: null, to: null, after: from, limit: 0 }, 'c');
  const select = selectList(session.columns, 'c');
  const bounded = until === null ? '' : ` AND c.${t} <= ?`;
  return {
    sql:
      `SELECT ${select}, c.${t} AS k_t FROM ${source.table} c WHERE ${range.sql}${bounded} ` +
      `ORDER BY c.${t}, c.id LIMIT ?`,
    params: [...range.params, ...(until === null ? [] : [until]), SESSION_CHUNK],
  };
}

/**
 * The time the walk may stop at: the latest end (sessionEnds: the next opening or closing, or the
 * partition's last row) of the sessions the page's last openings of `open` partitions started, each
 * looked for after that opening or the walk's position, whichever is later (at least that
 * opening: the walk reaches it).
 */
async function walkEnd(
  source: Source<unknown>,
  session: SessionRows,
  open: ReadonlyArray<{ values: string[]; after: Position }>,
  db: SqlReader,
): Promise<string> {
  const { partition, marker, opens, closes } = session;
  const marks = { table: source.table, time: source.time, partition, marker, opens, closes };
  const ends = await sessionEnds(marks, open, db);
  // A session with no row after its opening still needs the walk to reach that opening.
  return open
    .map(({ after }, i) => ends[i] ?? after.time)
    .reduce((latest, end) => (end > latest ? end : latest));
}

/**
 * Gives each row of a page the rows of the session it opens (`source.session`): the rule of
 * docs/database.md, "Drawer sessions and business days", applied to the rows in (time, id) order
 * of its partition (its shop's register). One walk per shop of the page from the shop's first
 * row on the page, in statements of SESSION_CHUNK rows, until the session of every partition's
 * last row on the page has ended (its closing row, or the next opening row) or the table has no
 * more rows (the session is open). After the first statement, the walk stops at the latest end
 * of the sessions still open (walkEnd): a session never counted ends at its register's last row. The page's rows are read through the caller's scope: no shop
 * or id comes from outside.
 */
export async function readSessions<R extends { id: string }>(
  source: Source<R>,
  rows: R[],
  db: SqlReader,
): Promise<R[]> {
  const session = source.session;
  if (!session || rows.length === 0) return rows;
  const t = source.time;
  const key = (row: Row): string => session.partition.map((c) => String(row[c])).join('\u0000');
  const shopColumn = session.partition[0];
  const pageIds = new Map<string, Row[]>();
  const byShop = new Map<string, Row[]>();
  for (const row of rows) {
    const children: Row[] = [];
    (row as Record<string, unknown>)[session.as] = children;
    pageIds.set(row.id, children);
    const own = row as unknown as Row;
    const shop = String(own[shopColumn]);
    const ofShop = byShop.get(shop);
    if (ofShop) ofShop.push(own);
    else byShop.set(shop, [own]);
  }
  for (const [shop, opened] of byShop) {
    /** Each partition's last row on the page: its walk ends once that row's session has. */
    const last = new Map<string, Position>();
    // The page's rows are in (time, id) order: the shop's first is where its walk starts.
    let from = positionOf(opened[0], t);
    for (const row of opened) {
      const position = positionOf(row, t);
      const k = key(row);
      const known = last.get(k);
      if (!known || after(position, known)) last.set(k, position);
    }
    const current = new Map<string, Row[] | null>([
      [key(opened[0]), pageIds.get(String(opened[0].id)) ?? null],
    ]);
    const pending = new Set(last.keys());
    const valuesOf = new Map(
      opened.map((row) => [key(row), session.partition.map((c) => String(row[c]))]),
    );
    // Bounded once a statement leaves sessions open: a drawer never counted would walk the
    // shop's rows to their end (issue 54).
    let until: string | null = null;
    for (let statement = 0; pending.size > 0; statement++) {
      if (statement === 1) {
        const open = [...pending].map((k) => {
          const opening = last.get(k)!;
          return { values: valuesOf.get(k)!, after: after(opening, from) ? opening : from };
        });
        until = await walkEnd(source, session, open, db);
      }
      const { sql, params } = walkQuery(source, session, shop, from, until);
      const read: Row[] = await db.query(sql, params);
      for (const row of read) {
        const position = { time: String(row.k_t), id: String(row.id) };
        delete row.k_t;
        from = position;
        const k = key(row);
        if (!pending.has(k)) continue;
        const marker = String(row[session.marker]);
        const own = marker === session.opens ? pageIds.get(position.id) : undefined;
        if (own) {
          current.set(k, own);
          continue;
        }
        if (marker !== session.opens) current.get(k)?.push(row);
        if (marker === session.opens || marker === session.closes) {
          current.set(k, null);
          if (!after(last.get(k)!, position)) pending.delete(k);
        }
      }
      if (read.length < SESSION_CHUNK) break;
    }
  }
  return rows;
}
