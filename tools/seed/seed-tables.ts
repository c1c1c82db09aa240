import { type AnyResource, camelName } from '../../src/catalogue/resource';
import type { Source } from '../../src/catalogue/source';
import { CATALOGUE } from '../../src/app.catalogue';
import type { SeedIds } from './business-data.types';

/** A table the seed inserts into: its name and the columns, in the INSERT's order. */
export interface TableSpec {
  table: string;
  columns: readonly string[];
}

/**
 * A table of business rows the seed fills, read off the catalogue: `key` names its rows in a
 * batch, its summary count and, when it has ids, its first and next ids; `label` names its ids
 * in the summary ('cash movement').
 */
export interface SeedTable extends TableSpec {
  key: string;
  ids: { label: string } | null;
}

/** The record's class without `Dto`, in words: `CashMovementDto` → 'cash movement'. */
const words = (resource: AnyResource): string =>
  resource.record.name
    .replace(/Dto$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();

/** What the seed inserts into a resource's table: its declared columns, and its arrival column. */
function insertOf(source: Source<unknown>): TableSpec {
  const arrival = source.arrivedAt ? [source.arrivedAt] : [];
  return { table: source.table, columns: [...Object.keys(source.columns), ...arrival] };
}

/**
 * The tables of the catalogue's resources with a feed (a list-only resource reads another's
 * table: the drawer sessions), each followed by the tables attached to its rows that no resource
 * reads (a sale's lines), in the catalogue's order: the order that keeps foreign keys satisfied.
 */
export function seedTables(catalogue: readonly AnyResource[]): SeedTable[] {
  const read = new Set(catalogue.map((resource) => resource.source.table));
  return catalogue.flatMap((resource): SeedTable[] => {
    if (!resource.feed) return [];
    const own = { key: camelName(resource.route), ...insertOf(resource.source) };
    const attached = resource.source.attached
      .filter((a) => !read.has(a.table))
      .map((a) => ({ key: a.as, table: a.table, columns: Object.keys(a.columns), ids: null }));
    const ids = 'id' in resource.source.columns ? { label: words(resource) } : null;
    return [{ ...own, ids }, ...attached];
  });
}

/** The business tables of the seed, from the catalogue. */
export const SEED_TABLES: readonly SeedTable[] = seedTables(CATALOGUE);

/** The seeded tables with ids, whose first and next ids the seed keeps (`SeedIds`). */
export const ID_TABLES = SEED_TABLES.filter((t) => t.ids) as Array<
  SeedTable & { key: keyof SeedIds; ids: { label: string } }
>;

export const ID_KEYS = ID_TABLES.map((t) => t.key);
