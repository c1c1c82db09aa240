import type { AnyResource } from '../../../src/catalogue/resource';
import type { Columns, Source } from '../../../src/catalogue/source';
import { CATALOGUE } from '../../../src/app.catalogue';
import { SALES } from '../../../src/sales/sales.source';
import { insertRowAt, insertSale, walkPages } from '../../support/business-factories';
import { bearer, http } from '../../support/http';
import type { Rec } from './checksum-rule';

/** The resources with a digest. */
export const SYNCED = CATALOGUE.filter((resource) => 'digest' in resource && resource.digest);

/** One date of a digest's answer. */
export interface Day {
  date: string;
  count: number;
  checksum: string;
}

export const DATE = '2026-03-10';
/** DATE as a digest reads it: the stored times from its midnight to the next. */
export const DAY = { from: `${DATE} 00:00:00.000`, to: '2026-03-11 00:00:00.000' };
export const PERIOD = `From=2026-03-01&To=2026-04-01`;

/** The rows of one shop on DATE: a sale with two lines, and a row of every other resource with a digest. */
export async function seed(db: Parameters<typeof insertSale>[0], shop: string, id: bigint) {
  const at = `${DATE} 10:00:00.000`;
  const lines = [
    { quantity: '1.000', unitPrice: '5.00', net: '5.00', tax: '1.05', gross: '6.05' },
    { quantity: '2.000', unitPrice: '2.50', net: '5.00', tax: '1.05', gross: '6.05' },
  ];
  await insertSale(db, { id, shopCode: shop, soldAt: at, lines });
  for (const { source } of SYNCED.filter((r) => r.source.table !== SALES.table)) {
    await insertRowAt(db, source, { id, shopCode: shop, at });
  }
}

/**
 * A value other than any the factories write, of the column's type: every column a record is
 * built from, but the keys (ids, and the shop and register, which the foreign keys hold).
 */
function otherValue(name: string, sqlType: string, time: string): string | number | null {
  if (name === time) return `${DATE} 12:34:56.789`;
  if (sqlType === 'DATE') return '2020-01-01';
  if (sqlType.startsWith('DECIMAL')) return 7.77;
  if (/^(TINYINT|SMALLINT|INT)/.test(sqlType)) return 99;
  return 'ZZZ';
}

const KEYS = new Set(['shop_code', 'register_code']);
const changeable = (columns: Columns) =>
  Object.entries(columns).filter(([name, c]) => !c.id && !KEYS.has(name));

/** One UPDATE of one column behind the service's back, of the row (or line) of id `?`. */
export interface ColumnEdit {
  table: string;
  name: string;
  value: string | number | null;
  where: string;
}

/**
 * Every column a record of `resource` is made of, from its declaration (its own, then its
 * attachments', the order columns last: the statement finds its line by them), each as an edit.
 */
export function columnEdits(resource: AnyResource): ColumnEdit[] {
  const { source } = resource;
  return [
    ...changeable(source.columns).map(([name, c]) => ({
      table: source.table,
      name,
      value: otherValue(name, c.sqlType ?? '', source.time),
      where: 'id = ?',
    })),
    ...source.attached.flatMap((a) =>
      [...changeable(a.columns)]
        .sort(([x], [y]) => Number(a.orderBy.includes(x)) - Number(a.orderBy.includes(y)))
        .map(([name, c]) => ({
          table: a.table,
          name,
          value: otherValue(name, c.sqlType ?? '', ''),
          where: `${a.parentId} = ? AND ${a.orderBy[0] ?? a.parentId} = 1`,
        })),
    ),
  ];
}

/**
 * The SQL of every value a record of `source` is made of, over its table aliased `x`, from its
 * declaration: its columns, then its lookups (each a subquery on the looked-up row's key).
 */
export const recordValues = (source: Source<unknown>): string[] => [
  ...Object.keys(source.columns).map((name) => `x.${name}`),
  ...Object.values(source.derived).flatMap(({ derivation: d }) =>
    d?.kind === 'lookup'
      ? [`(SELECT l.${d.column} FROM ${d.table} l WHERE l.${d.key} = x.${d.by})`]
      : [],
  ),
];

/** The records of `shop` on DATE as `route`'s list gives them, every page. */
export async function listedOnDate(
  baseUrl: string,
  route: string,
  shop: string,
  token: string,
): Promise<Rec[]> {
  const pages = await walkPages<Rec>((cursor) =>
    http(
      baseUrl,
      `/api/v1.0/${route}?ShopCode=${shop}&From=${DATE}T00:00:00&To=2026-03-11T00:00:00` +
        (cursor ? `&Cursor=${encodeURIComponent(cursor)}` : ''),
      { headers: bearer(token) },
    ),
  );
  return pages.flatMap((page) => page.data);
}
