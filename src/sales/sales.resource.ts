import type { ShopScopedReader } from '../backoffice/shop-scoped-reader';
import type { SaleWithLines } from '../backoffice/read-models';
import type { KeysetResource } from '../common/pagination/keyset-resource';
import type { SaleRecord } from './sale.record';
import { toSaleRecord } from './sale.mapper';

/** GET /sales: pages of the caller's sales with their lines, mapped to SaleRecord. */
export const SALES: KeysetResource<ShopScopedReader, SaleWithLines, SaleRecord> = {
  name: 'sales',
  read: (reader, query) => reader.salesPage(query),
  toRecord: toSaleRecord,
};
