import type { ShopRow } from '../wall/wall';
import type { ShopDto } from './dto/shop.dto';

/** A shop as GET /shops returns it. */
export function toShop(row: ShopRow): ShopDto {
  return { code: row.code, name: row.name, timeZone: row.time_zone, currency: row.currency };
}
