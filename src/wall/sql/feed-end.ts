import type { PrimaryReader } from '../../database/replicas/read-router';
import type { Source } from '../../catalogue/source';

/** Ids compared a statement when looking for an insert in flight: a bounded slice of the shop's. */
const SLICE = 20_000;

/**
 * Where a feed of `shops` stands now, before any read that follows it: the highest id below which
 * every id of the shops is committed, or was rolled back (decimal; '0' without rows). A feed
 * cursor at it delivers every record that commits later (docs/sync.md, "The bulk read").
 *
 * The committed read's highest id is not enough: an insert in flight can hold a lower id (ids are
 * taken at insert, not at commit), and a feed started above it would step over it for ever. So,
 * as the feed's own re-read does (arrival-reader.ts), the shops' ids up to it are read again under
 * READ UNCOMMITTED, slice by slice in id order on the same connection, and the lowest id that the
 * second read shows and the first does not ends the position below it. An insert that commits
 * between the two reads is taken for one in flight: the position is lower than it could be, and
 * the feed delivers that record again, which a copy keyed by id absorbs. SQLite's single writer
 * never leaves an uncommitted id below a committed one: its highest id is the position.
 *
 * Inside the wall: it takes a list of shops, so only the Wall calls it.
 */
export async function readFeedEnd(
  source: Source<unknown>,
  shops: readonly string[],
  db: PrimaryReader,
  slice = SLICE,
): Promise<string> {
  if (shops.length === 0) return '0';
  const inShops = `shop_code IN (${shops.map(() => '?').join(', ')})`;
  const [top] = await db.query(
    `SELECT CAST(MAX(id) AS CHAR) AS id FROM ${source.table} WHERE ${inShops}`,
    [...shops],
  );
  const end = top?.id === null || top?.id === undefined ? '0' : String(top.id);
  if (!db.uncommitted || end === '0') return end;
  const ids = (rows: Array<Record<string, unknown>>) =>
    rows.map((row) => BigInt(String(row.row_id)));
  // Ordered by the column, not by a text alias of it (`10` < `9`): its own name is `row_id`.
  const range = `SELECT CAST(id AS CHAR) AS row_id FROM ${source.table} WHERE ${inShops} AND id > ? AND id <= ? ORDER BY id LIMIT ?`;
  let after = 0n;
  const last = BigInt(end);
  while (after < last) {
    const committed = ids(await db.query(range, [...shops, after, last, slice]));
    // The slice's upper id: its last committed id, or the end when it is the last slice.
    const upper = committed.length === slice ? committed[committed.length - 1] : last;
    const seen = ids(await db.uncommitted.query(range, [...shops, after, upper, slice + 1]));
    const known = new Set(committed);
    const inFlight = seen.find((id) => !known.has(id));
    if (inFlight !== undefined) return String(inFlight - 1n);
    after = upper;
  }
  return end;
}
