import {
  BUSINESS_DATE,
  businessDateRule,
  type Derivation,
  type Source,
} from '../../catalogue/source';

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
 * business date reads the sale), or of a DATE column (a sale's `business_date`). Answered by one
 * statement (wall/sql/change-lookups.sql.ts). `mark`: the marks' table (else `table`) and shop
 * (else each row's).
 */
export interface DirtyLookup {
  table: string;
  column: string;
  time: string;
  values: unknown[];
  mark?: { table: string; shop?: string };
}

/**
 * The table of the marks of a source's business days (the day close's entries, by business
 * date), beside those of its calendar dates (`source.table`): the table itself when a record's
 * business date is the date of its time; `<table>#business-day` when a column or a looked-up row
 * holds it; null when only the rows around it can tell (a session date, a source of sessions):
 * the day close then reads the calendar dates of its sessions' span (docs/sync.md).
 */
export function businessDayTable(source: Source<unknown>): string | null {
  if (source.session) return null;
  const rule = businessDateRule(source);
  if (rule.kind === 'session') return null;
  return rule.kind === 'time' ? source.table : `${source.table}#business-day`;
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
 *   after it may move;
 * - and the business days these rows are of, under businessDayTable (businessDaysOf below).
 */
export function dirtyOf(sources: readonly Source<unknown>[], changes: readonly RowChange[]): Dirt {
  const marks: DirtyMark[] = [];
  const lookups = new Map<string, DirtyLookup>();
  const lookup = (
    table: string,
    column: string,
    time: string,
    value: unknown,
    mark?: DirtyLookup['mark'],
  ) => {
    const key = JSON.stringify([table, column, time, mark?.table, mark?.shop]);
    let found = lookups.get(key);
    if (!found)
      lookups.set(key, (found = { table, column, time, values: [], ...(mark && { mark }) }));
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
          if (!moves(change, derivation, false, read)) continue;
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
  for (const source of sources) {
    const table = businessDayTable(source);
    // A business day that is the date of the time is marked above; a session's, never here.
    if (table === null || table === source.table) continue;
    const rule = businessDateRule(source);
    const helpers = { read, dateOf, shopOf, images, inTransaction, lookup, marks };
    for (const change of changes) businessDaysOf(source, rule, table, change, changes, helpers);
  }
  const unique = [...new Map(marks.map((mark) => [JSON.stringify(mark), mark])).values()];
  return { marks: unique, lookups: [...lookups.values()], ...(broken ? { broken } : {}) };
}

/** What dirtyOf's rules share: reading an image (noting what it lacks), and where marks go. */
interface Helpers {
  read(image: RowImage, table: string, column: string): unknown;
  dateOf(image: RowImage, table: string, column: string): string | null;
  shopOf(image: RowImage, table: string): string;
  images(change: RowChange): RowImage[];
  inTransaction(table: string, id: unknown): boolean;
  lookup(
    table: string,
    column: string,
    time: string,
    value: unknown,
    mark?: DirtyLookup['mark'],
  ): void;
  marks: DirtyMark[];
}

/**
 * The business days (marks of `table`, businessDayTable) that `change` moves for `source`, whose
 * business date a column or a looked-up row holds:
 *
 * - a row of the source: its business date before and after, in its shop (a looked-up one from
 *   the transaction's own rows of the looked-up table, else by a look-up of it now: a later
 *   change of that row marks its own dates, below);
 * - a row attached to it (a sale line): its parent's business date, from the transaction's own
 *   rows of the parent (above), else looked up;
 * - the looked-up row of the business date (a payment's sale) when its key, its date or its shop
 *   moved: its dates before and after in every shop (the rows that read it may be of any shop,
 *   or gone by the time of a look-up);
 * - a shop's row (its zone): every business day of the shop;
 * - any other looked-up row: the business days of the rows that read it.
 *
 * A shape these rules do not follow (a looked-up business date with attachments) marks every
 * business day: slower, never wrong.
 */
function businessDaysOf(
  source: Source<unknown>,
  rule: ReturnType<typeof businessDateRule>,
  table: string,
  change: RowChange,
  changes: readonly RowChange[],
  { read, dateOf, shopOf, images, inTransaction, lookup, marks }: Helpers,
): void {
  const dated = rule.kind === 'lookup' ? rule.derivation : null;
  /** The business days of the rows of the source whose `column` holds `value`. */
  const rowsWhere = (column: string, value: unknown) => {
    if (rule.kind === 'column') lookup(source.table, column, BUSINESS_DATE, value, { table });
    else marks.push({ table, shop: ANY_SHOP, from: null });
  };
  if (change.table === source.table) {
    for (const image of images(change)) {
      const shop = shopOf(image, source.table);
      if (!dated) {
        const date = dateOf(image, source.table, BUSINESS_DATE);
        if (date) marks.push({ table, shop, date });
        continue;
      }
      const key = read(image, source.table, dated.by) as string | number | null;
      if (key === null) continue;
      const held = changes
        .filter((c) => c.table === dated.table)
        .flatMap(images)
        .filter((row) => String(row[dated.key]) === String(key));
      if (held.length === 0) lookup(dated.table, dated.key, dated.column, key, { table, shop });
      for (const row of held) {
        const date = dateOf(row, dated.table, dated.column);
        if (date) marks.push({ table, shop, date });
      }
    }
  }
  for (const attached of source.attached.filter((a) => a.table === change.table)) {
    for (const image of images(change)) {
      const parent = read(image, attached.table, attached.parentId);
      if (parent !== null && !inTransaction(source.table, parent)) rowsWhere('id', parent);
    }
  }
  for (const column of Object.values(source.derived)) {
    const derivation = column.derivation;
    if (derivation?.kind !== 'lookup' || derivation.table !== change.table) continue;
    const isDate = derivation === dated;
    if (!moves(change, derivation, isDate, read)) continue;
    for (const image of images(change)) {
      const key = read(image, derivation.table, derivation.key);
      if (isDate) {
        const date = dateOf(image, derivation.table, derivation.column);
        if (date) marks.push({ table, shop: ANY_SHOP, date });
      } else if (derivation.by === 'shop_code') {
        marks.push({ table, shop: shopKey(key) ?? ANY_SHOP, from: null });
      } else if (key !== null) {
        rowsWhere(derivation.by, key);
      }
    }
  }
}

/**
 * Whether a change of a looked-up row moves what the rows reading it derive: an insert, a
 * delete, its key or its looked-up column changed; and its shop, for a business date (the close
 * reads a payment's business date through its sale of the shop).
 */
function moves(
  change: RowChange,
  derivation: Extract<Derivation, { kind: 'lookup' }>,
  withShop: boolean,
  read: Helpers['read'],
): boolean {
  const [before, after] = [change.before, change.after];
  if (!before || !after) return true;
  const columns = [derivation.key, derivation.column, ...(withShop ? ['shop_code'] : [])];
  return columns.some(
    (c) => String(read(before, derivation.table, c)) !== String(read(after, derivation.table, c)),
  );
}
