import type { ShopDto } from './shop.dto';

/** A shop as the service writes it: the example of the document. */
export const SHOP_EXAMPLE: ShopDto = {
  code: 'SHOP001',
  name: 'Mercado Sol Centro',
  timeZone: 'Europe/Madrid',
  currency: 'EUR',
};
