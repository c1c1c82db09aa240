import type { ShopRow } from '../backoffice/read-models';
import type { Shop } from './shop.record';

/** A shop as GET /shops returns it. */
export function toShop(row: ShopRow): Shop {
  return { code: row.code, name: row.name, timeZone: row.time_zone, currency: row.currency };
}
