import { CATALOGUE } from '../../src/catalogue';

/** The resources of the catalogue by route, with the table and time column each reads. */
export const TABLE: Readonly<Record<string, readonly [table: string, time: string]>> =
  Object.fromEntries(CATALOGUE.map(({ route, source }) => [route, [source.table, source.time]]));
/** A resource's route: `sales`, `payments`, `cash-movements`. */
export type Resource = string;
/** Every resource of the catalogue, by route: the specs that run once per resource run over it. */
export const RESOURCES: readonly Resource[] = CATALOGUE.map(({ route }) => route);
/** The period the walks read: the whole of 2026. */
export const YEAR = 'From=2026-01-01T00:00:00&To=2027-01-01T00:00:00';
