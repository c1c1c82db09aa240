import type { ShopScopedReader } from '../backoffice/shop-scoped-reader';
import type { SaleWithLines } from '../backoffice/read-models';
import type { KeysetResource } from '../common/pagination/keyset-resource';
import type { SaleDto } from './dto/sale.dto';
import { toSaleRecord } from './sale.mapper';

/** GET /sales: pages of the caller's sales with their lines, mapped to SaleDto. */
export const SALES: KeysetResource<ShopScopedReader, SaleWithLines, SaleDto> = {
  name: 'sales',
  read: (reader, query) => reader.salesPage(query),
  toRecord: toSaleRecord,
};
