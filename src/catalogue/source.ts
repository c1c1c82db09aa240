/**
 * How a resource declares the back-office table it reads (its `<resource>.source.ts`): the
 * table, its columns and the rows attached to each row (a sale's lines). The row type is derived
 * from the same columns the SELECT list is built from, so a column the mapper reads but the source
 * does not declare is a type error, never an `undefined` field. Declarations only: the SQL is
 * built and run behind the wall (sql/), with the caller's shop scope (shop-scoped-reader.ts).
 */

/** A DECIMAL as the drivers return it: mysql2 a string with the column's scale, better-sqlite3 a number. */
export type SqlDecimal = string | number;

/** The kinds of columns (`col`), by what the row holds. */
export type ColumnKind = 'id' | 'nullableId' | 'text' | 'nullableText' | 'decimal' | 'integer';

/** One selected column; `T` is its value as the drivers return it. */
export interface Column<T> {
  readonly kind: ColumnKind;
  /** BIGINT ids are selected as `CAST(… AS CHAR)`: exact decimal strings beyond 2^53. */
  readonly id: boolean;
  /**
   * Its type in the back-office schema (`DECIMAL(15,2)`), as `backoffice/schema.sql` writes it;
   * a spec checks every declared column against that file. Absent only in specs' own tables.
   */
  readonly sqlType?: string;
  /** Never set: carries the value's type. */
  readonly value?: T;
  /** A derived column's derivation (`derived`); absent for the table's own columns. */
  readonly derivation?: Derivation;
}

/**
 * How a DERIVED column's value is computed from the row, as data: the SQL is built behind the wall
 * (sql/derived-columns.ts), over the row aliased `x`, and selected with the table's own columns
 * in every read (lists, feeds, digests' days, the multi-shop keyset form), hashed into the
 * digests' day fingerprints with them.
 */
export type Derivation =
  /**
   * `column` of the row of `table` whose primary key `key` equals the row's `by` (a scalar
   * subquery on the primary key; NULL when there is none): the shop's zone, a payment's sale's
   * business date.
   */
  | { kind: 'lookup'; table: string; key: string; by: string; column: string }
  /**
   * The business date of a drawer session (docs/database.md, "Drawer sessions and business
   * days"): the rows of one `partition` (shop_code first, then the register) in (time, id) order;
   * a row whose `marker` is `opens` opens a session holding it and every later row up to and
   * including the next `closes`; a session's date is the calendar date of its opening row's time,
   * and a row outside any session has its own time's date.
   */
  | {
      kind: 'sessionDate';
      partition: readonly string[];
      marker: string;
      opens: string;
      closes: string;
      /**
       * The name of the table's (shop_code, time, id) index in the back office's schema: MySQL and
       * MariaDB are told to walk it back from a position (their planner read the shop's rows from
       * its first instead, decision 55.4.2).
       */
      index: string;
    };

/**
 * A derived column: a value of the row's computed by the database at each read (`derivation`),
 * typed by its SQL type as `sql`/`nullable` type the table's own (`derived(nullable('VARCHAR(64)'),
 * …)`). Declared in a source's `derived`, never in its `columns` (those are the table's, what an
 * INSERT writes and the schema checks).
 */
export function derived<T>(column: Column<T>, derivation: Derivation): Column<T> {
  return { ...column, derivation };
}

const column = <T>(kind: ColumnKind, id = false): Column<T> => ({ kind, id });

/** The value a column of SQL type `S` holds in a row: BIGINT ids as text, DECIMALs as SqlDecimal. */
export type SqlValueOf<S extends string> = S extends `BIGINT${string}`
  ? string
  : S extends `DECIMAL${string}`
    ? SqlDecimal
    : S extends `${'TINYINT' | 'SMALLINT' | 'INT'}${string}`
      ? number
      : string;

function kindOf(sqlType: string, nullable: boolean): ColumnKind {
  if (sqlType.startsWith('BIGINT')) return nullable ? 'nullableId' : 'id';
  if (sqlType.startsWith('DECIMAL')) return 'decimal';
  if (/^(TINYINT|SMALLINT|INT)\b/.test(sqlType)) return 'integer';
  return nullable ? 'nullableText' : 'text';
}

/**
 * A NOT NULL column of the back-office schema, by its SQL type there (`sql('VARCHAR(16)')`):
 * the kind, the row's value type and the SELECT's cast all follow from the type.
 */
export function sql<S extends string>(sqlType: S): Column<SqlValueOf<S>> {
  const kind = kindOf(sqlType, false);
  return { kind, id: kind === 'id', sqlType };
}

/** A NULL column of the back-office schema, by its SQL type there. */
export function nullable<S extends string>(sqlType: S): Column<SqlValueOf<S> | null> {
  const kind = kindOf(sqlType, true);
  if (kind === 'decimal' || kind === 'integer') {
    throw new TypeError(`nullable ${sqlType}: no column kind holds it yet`);
  }
  return { kind, id: kind === 'nullableId', sqlType };
}

/** The kinds of columns, by what the row holds (dates and date-times in the stored form). */
export const col = {
  id: column<string>('id', true),
  nullableId: column<string | null>('nullableId', true),
  text: column<string>('text'),
  nullableText: column<string | null>('nullableText'),
  decimal: column<SqlDecimal>('decimal'),
  integer: column<number>('integer'),
};

export type Columns = Record<string, Column<unknown>>;

/** The row of a set of columns: one property per column, typed by its kind. */
export type RowOf<C extends Columns> = {
  -readonly [K in keyof C]: C[K] extends Column<infer T> ? T : never;
};

/**
 * Rows of another table attached to each row of a page, read in one query for the whole page by
 * `parentId` (the page's own ids: none comes from outside), in `orderBy` order, as property `as`.
 */
export interface Attached<
  K extends string = string,
  C extends Columns = Columns,
> extends AttachedRows {
  as: K;
  parentId: keyof C & string;
  columns: C;
  orderBy: ReadonlyArray<keyof C & string>;
}

/** An attachment as the SQL reads it (sql/attached-reader.ts). */
export interface AttachedRows {
  as: string;
  table: string;
  /** The column holding the parent row's id (one of `columns`). */
  parentId: string;
  columns: Columns;
  /** Order within a parent, after the parent id; empty: the database's order. */
  orderBy: readonly string[];
  distinct?: boolean;
}

/**
 * The rows of a session each row of a page opens (a drawer session, docs/database.md, "Drawer
 * sessions and business days"): the rows of the same table and `partition` (shop_code first)
 * after it in (time, id) order, up to and including the next row whose `marker` is `closes`, or
 * up to the next one that `opens` (the session stays open), or to the last row. Read for a whole
 * page by one walk per shop (sql/session-reader.ts), given to the row as property `as`.
 */
export interface SessionRows<K extends string = string, C extends Columns = Columns> {
  as: K;
  partition: readonly string[];
  marker: string;
  opens: string;
  closes: string;
  /** What each of the session's rows holds (its id and the partition's columns among them). */
  columns: C;
}

/**
 * A source: the table, its columns, its order columns and what each row gets attached. `R` is
 * the row a read returns (attachments included), `O` the row of the table's own columns.
 */
export interface Source<R, O = unknown> {
  table: string;
  columns: Columns;
  /** Derived columns (`derived`): selected and typed with `columns`, never inserted. */
  derived: Columns;
  /** The shop-local date-time of the period lists, indexed as (shop_code, column, id). */
  time: string;
  /** When a row reached the back office (the sales' created_at); absent: the table has none. */
  arrivedAt?: string;
  /**
   * Only the table's rows whose columns hold these values (`{ kind: 'OPENING_FLOAT' }`), in the
   * list's keyset read; none: every row. A source with `only` has a list, no feed or digest.
   */
  only?: Readonly<Record<string, string>>;
  /** The session each row opens, with its rows (`withSession`). */
  session?: SessionRows;
  attached: readonly AttachedRows[];
  /** Never set: carries the row's type. */
  readonly row?: R;
  /** Never set: carries the type of the row of its own columns (what an INSERT writes). */
  readonly own?: O;
}

/** The row type of a source. */
export type SourceRow<S> = S extends Source<infer R, unknown> ? R : never;

/** The row of a source's own columns, without its attachments. */
export type OwnRow<S> = S extends Source<unknown, infer O> ? O : never;

/**
 * A source over `table` and its `columns`, with its `derived` columns (none by default); `time`
 * (and `arrivedAt`) must be among the columns.
 */
export function defineSource<C extends Columns, D extends Columns = Record<never, never>>(spec: {
  table: string;
  columns: C;
  derived?: D;
  time: keyof C & string;
  arrivedAt?: string;
  only?: Readonly<Record<string, string>>;
}): Source<RowOf<C> & RowOf<D>, RowOf<C>> {
  const { only, ...rest } = spec;
  return { ...rest, derived: spec.derived ?? {}, ...(only ? { only } : {}), attached: [] };
}

/** A source whose rows also carry the `attached` rows of another table. */
export function withAttached<R, O, K extends string, C extends Columns>(
  source: Source<R, O>,
  attached: Attached<K, C>,
): Source<R & Record<K, Array<RowOf<C>>>, O> {
  return { ...source, attached: [...source.attached, attached] } as Source<
    R & Record<K, Array<RowOf<C>>>,
    O
  >;
}

/** A source whose rows also carry the rows of the session each opens (one session a source). */
export function withSession<R, O, K extends string, C extends Columns>(
  source: Source<R, O>,
  session: SessionRows<K, C>,
): Source<R & Record<K, Array<RowOf<C>>>, O> {
  if (source.session) throw new TypeError(`${source.table}: one session a source`);
  return { ...source, session } as Source<R & Record<K, Array<RowOf<C>>>, O>;
}

/**
 * The SELECT list of `columns` over the table aliased `alias` (a table's own columns: a derived
 * column's expression is built behind the wall, sql/derived-columns.ts).
 */
export function selectList(columns: Columns, alias: string): string {
  return Object.entries(columns)
    .map(([name, c]) => (c.id ? `CAST(${alias}.${name} AS CHAR) AS ${name}` : `${alias}.${name}`))
    .join(', ');
}

/**
 * The shop's IANA zone (`bo_shops.time_zone` by the row's `shop_code`): every resource's derived
 * `time_zone` (NULL when the shop has no row).
 */
export const SHOP_TIME_ZONE = derived(nullable('VARCHAR(64)'), {
  kind: 'lookup',
  table: 'bo_shops',
  key: 'code',
  by: 'shop_code',
  column: 'time_zone',
});

/** The column (own or derived) that holds a record's business date. */
export const BUSINESS_DATE = 'business_date';

/**
 * Where a source's business date comes from, by its declaration (docs/database.md, "Reading by
 * business date"): its own `business_date` column; a derived `business_date` looked up by a key
 * (a payment's sale's) or computed after the read (a cash movement's drawer session's); else
 * the date of its `time` column (a drawer session's opening).
 */
export type BusinessDateRule =
  | { kind: 'column' }
  | { kind: 'lookup'; derivation: Extract<Derivation, { kind: 'lookup' }> }
  | { kind: 'session'; derivation: Extract<Derivation, { kind: 'sessionDate' }> }
  | { kind: 'time' };

export function businessDateRule(source: Source<unknown>): BusinessDateRule {
  if (BUSINESS_DATE in source.columns) return { kind: 'column' };
  const derivation = source.derived[BUSINESS_DATE]?.derivation;
  if (derivation?.kind === 'lookup') return { kind: 'lookup', derivation };
  if (derivation?.kind === 'sessionDate') return { kind: 'session', derivation };
  return { kind: 'time' };
}

/**
 * The index that serves the time range of a source's business dates (sql/business-date-range.ts),
 * as (table, columns), or null when the source's own (shop_code, time, id) does (a session date,
 * the date of `time`): MIN and MAX of the time over a shop's dates, on its own table, or the
 * looked-up table's rows by date (a payment's sales, then its payments by sale). Recommended in
 * sql/recommended-indexes.sql (tools/sql/catalogue-sql.ts).
 */
export function businessDateIndex(
  source: Source<unknown>,
): { table: string; columns: string[] } | null {
  const rule = businessDateRule(source);
  if (rule.kind === 'column') {
    return { table: source.table, columns: ['shop_code', BUSINESS_DATE, source.time] };
  }
  if (rule.kind !== 'lookup') return null;
  return { table: rule.derivation.table, columns: ['shop_code', rule.derivation.column] };
}
