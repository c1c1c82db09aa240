import type { Source } from '../../src/catalogue/source';
import { CATALOGUE } from '../../src/app.catalogue';

/** The resources of the catalogue by route, with the table and time column each reads. */
export const TABLE: Readonly<Record<string, readonly [table: string, time: string]>> =
  Object.fromEntries(CATALOGUE.map(({ route, source }) => [route, [source.table, source.time]]));
/** The source of each resource by route: what a generic factory inserts a row of. */
export const SOURCE: Readonly<Record<string, Source<unknown>>> = Object.fromEntries(
  CATALOGUE.map(({ route, source }) => [route, source]),
);
/**
 * The SQL condition of the rows each resource lists (its source's `only`: the drawer sessions
 * are the OPENING_FLOAT movements), to AND with a spec's own; `1 = 1` for every row.
 */
export const ROWS: Readonly<Record<string, string>> = Object.fromEntries(
  CATALOGUE.map(({ route, source }) => {
    const only = Object.entries(source.only ?? {}).map(([c, v]) => `${c} = '${v}'`);
    return [route, only.length > 0 ? only.join(' AND ') : '1 = 1'];
  }),
);
/** The record field of each resource's time: it orders the list and dates the digest. */
export const DATED_BY: Readonly<Record<string, string>> = Object.fromEntries(
  CATALOGUE.map(({ route, datedBy }) => [route, datedBy]),
);
/** A resource's route: `sales`, `payments`, `cash-movements`, `cash-drawer-sessions`. */
export type Resource = string;
/** Every resource of the catalogue, by route: the specs that run once per list run over it. */
export const RESOURCES: readonly Resource[] = CATALOGUE.map(({ route }) => route);
/** The resources with a feed and a digest: the specs of feeds and digests run over these. */
export const SYNCED_RESOURCES: readonly Resource[] = CATALOGUE.flatMap((resource) =>
  'feed' in resource && resource.feed ? [resource.route] : [],
);
/** The period the walks read: the whole of 2026. */
export const YEAR = 'From=2026-01-01T00:00:00&To=2027-01-01T00:00:00';
