import type { Source } from '../../catalogue/source';

/** A row as the binary log carries it: column name → value (dates as `YYYY-MM-DD …` text). */
export type RowImage = Readonly<Record<string, unknown>>;

/** One row event of a watched table: its before image (none for an insert) and after (none for a delete). */
export interface RowChange {
  table: string;
  before: RowImage | null;
  after: RowImage | null;
}

/**
 * Cache entries a change can move, by the source table the entries are of (a digest's
 * `source.table`) and the shop (its `shopKey`): one date, or every date from `from` on (null:
 * every date of the shop).
 */
export type DirtyMark =
  | { table: string; shop: string; date: string }
  | { table: string; shop: string; from: string | null };

/**
 * Rows a change moves that its images do not name: the rows of `table` whose `column` holds one
 * of `values`, each marking the date of its `time` (a sale line's sale; a sale's payments, whose
 * business date reads the sale). Answered by one statement (wall/sql/change-lookups.sql.ts).
 */
export interface DirtyLookup {
  table: string;
  column: string;
  time: string;
  values: unknown[];
}

/** What a transaction's changes move; `broken` when an image lacks what the rules read. */
export interface Dirt {
  marks: DirtyMark[];
  lookups: DirtyLookup[];
  broken?: string;
}

/** The shop of every mark that cannot be keyed by one shop's code (below). */
export const ANY_SHOP = '*';

/**
 * The key of a shop's marks. MariaDB compares shop codes by the column's collation (case and
 * trailing spaces ignored, accents folded by the `_ci` collations): a code of letters, digits
 * and `_.-` is keyed by its lower case without trailing spaces, which the collation's equal
 * codes share; any other code is ANY_SHOP, whose marks every shop's entries read. A digest of a
 * shop whose code has no key (null) is never answered from the log.
 */
export function shopKey(code: unknown): string | null {
  if (typeof code !== 'string') return null;
  const trimmed = code.replace(/ +$/, '');
  return /^[A-Za-z0-9_.-]+$/.test(trimmed) ? trimmed.toLowerCase() : null;
}

const DATE = /^\d{4}-\d{2}-\d{2}/;

/**
 * Every cache entry `changes` (one transaction's row events) can move, derived from the
 * declarations of `sources` (the digests' sources), never listed by hand:
 *
 * - a row of a source's table: the date of its `time`, in its shop, before and after;
 * - a row of an attachment's table (a sale line): its parent's date, found among the
 *   transaction's own rows of the parent's table, else by a look-up of the parent by id;
 * - a row a derived column looks up (a shop's zone; a sale, whose business date its payments
 *   read) whose key or looked-up column changed: the rows that read it (every date of the shop
 *   when the lookup is by `shop_code`; else a look-up of the rows by the key);
 * - a row that opens or closes a session (an OPENING_FLOAT, a CLOSING_COUNT) of a session-dated
 *   source: every date of its shop from its own date on, where the business day of the movements
 *   after it may move.
 */
export function dirtyOf(sources: readonly Source<unknown>[], changes: readonly RowChange[]): Dirt {
  const marks: DirtyMark[] = [];
  const lookups = new Map<string, DirtyLookup>();
  const lookup = (table: string, column: string, time: string, value: unknown) => {
    const key = `${table}.${column}`;
    let found = lookups.get(key);
    if (!found) lookups.set(key, (found = { table, column, time, values: [] }));
    if (!found.values.includes(value)) found.values.push(value);
  };
  const images = (change: RowChange) =>
    [change.before, change.after].filter((image): image is RowImage => image !== null);
  let broken: string | undefined;
  const read = (image: RowImage, table: string, column: string): unknown => {
    if (!(column in image)) broken ??= `${table}.${column} is not in the log's row image`;
    return image[column];
  };
  const dateOf = (image: RowImage, table: string, column: string): string | null => {
    const value = read(image, table, column);
    if (typeof value === 'string' && DATE.test(value)) return value.slice(0, 10);
    if (value !== null) broken ??= `${table}.${column} is not a date in the log`;
    return null;
  };
  const shopOf = (image: RowImage, table: string) =>
    shopKey(read(image, table, 'shop_code')) ?? ANY_SHOP;
  const inTransaction = (table: string, id: unknown) =>
    changes.some(
      (c) => c.table === table && images(c).some((image) => String(image.id) === String(id)),
    );

  for (const source of sources) {
    for (const change of changes) {
      if (change.table === source.table) {
        for (const image of images(change)) {
          const date = dateOf(image, source.table, source.time);
          if (date) marks.push({ table: source.table, shop: shopOf(image, source.table), date });
        }
      }
      for (const attached of source.attached.filter((a) => a.table === change.table)) {
        for (const image of images(change)) {
          const parent = read(image, attached.table, attached.parentId);
          if (parent !== null && !inTransaction(source.table, parent)) {
            lookup(source.table, 'id', source.time, parent);
          }
        }
      }
      for (const column of Object.values(source.derived)) {
        const derivation = column.derivation;
        if (derivation?.kind === 'lookup' && derivation.table === change.table) {
          const [before, after] = [change.before, change.after];
          const moved =
            !before ||
            !after ||
            String(read(before, derivation.table, derivation.key)) !==
              String(read(after, derivation.table, derivation.key)) ||
            String(read(before, derivation.table, derivation.column)) !==
              String(read(after, derivation.table, derivation.column));
          if (!moved) continue;
          for (const image of images(change)) {
            const key = read(image, derivation.table, derivation.key);
            if (derivation.by === 'shop_code') {
              marks.push({ table: source.table, shop: shopKey(key) ?? ANY_SHOP, from: null });
            } else if (key !== null) {
              lookup(source.table, derivation.by, source.time, key);
            }
          }
        }
        if (derivation?.kind === 'sessionDate' && change.table === source.table) {
          for (const image of images(change)) {
            const marker = read(image, source.table, derivation.marker);
            if (marker !== derivation.opens && marker !== derivation.closes) continue;
            const from = dateOf(image, source.table, source.time);
            if (from) marks.push({ table: source.table, shop: shopOf(image, source.table), from });
          }
        }
      }
    }
  }
  const unique = [...new Map(marks.map((mark) => [JSON.stringify(mark), mark])).values()];
  return { marks: unique, lookups: [...lookups.values()], ...(broken ? { broken } : {}) };
}
