import type { Column, Derivation, Source } from '../../catalogue/source';

/** A name of the back-office schema, or a marker value: nothing else is written into the SQL. */
const NAME = /^[a-z_][a-z0-9_]*$/;
const MARKER = /^[A-Z][A-Z0-9_]*$/;

function checked(value: string, pattern: RegExp): string {
  if (!pattern.test(value)) throw new TypeError(`derived column: ${value} is not a plain name`);
  return value;
}

/** `value` if it is a plain lower-case SQL name (a table, a column), else a TypeError. */
export const sqlName = (value: string): string => checked(value, NAME);

/** `value` as a quoted SQL literal if it is a plain upper-case marker (`OPENING_FLOAT`). */
export const sqlMarker = (value: string): string => `'${checked(value, MARKER)}'`;

/**
 * The SQL of a lookup over the source's row aliased `x`, the same on SQLite and MariaDB: a scalar
 * subquery on the looked-up table's primary key (eq_ref). Its own alias (`d_l`) is never the
 * reads' (`x`, `s`, `p`, `m0`…), so it nests in any of them.
 */
function lookupSql(derivation: Extract<Derivation, { kind: 'lookup' }>): string {
  const [table, key, by, column] = [
    derivation.table,
    derivation.key,
    derivation.by,
    derivation.column,
  ].map(sqlName);
  return `(SELECT d_l.${column} FROM ${table} d_l WHERE d_l.${key} = x.${by})`;
}

/** One value a read selects from a source: its name, its SQL over `x`, and whether it is an id. */
export interface SelectedValue {
  name: string;
  sql: string;
  id: boolean;
}

const values = new WeakMap<Source<unknown>, readonly SelectedValue[]>();

/**
 * Every value a read of `source` selects, the table's own columns then the derived lookups, built
 * once per source: the SELECT lists (selectOf) and the row hash of the day fingerprints read it,
 * so a lookup is selected and fingerprinted wherever the others are. A session date is not
 * selected: the wall computes it after the read (sql/session-dates.ts), and fingerprints it there.
 */
export function selectedValues(source: Source<unknown>): readonly SelectedValue[] {
  let selected = values.get(source);
  if (!selected) {
    const own = Object.entries(source.columns).map(([name, c]) => ({
      name,
      sql: `x.${name}`,
      id: c.id,
    }));
    const derived = Object.entries(source.derived).flatMap(
      ([name, c]: [string, Column<unknown>]) => {
        if (!c.derivation) throw new TypeError(`${source.table}.${name}: no derivation`);
        if (name in source.columns) throw new TypeError(`${source.table}.${name}: declared twice`);
        if (c.derivation.kind !== 'lookup') return [];
        return [{ name, sql: lookupSql(c.derivation), id: c.id }];
      },
    );
    values.set(source, (selected = [...own, ...derived]));
  }
  return selected;
}
