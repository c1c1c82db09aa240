import type { ShopScopedReader } from '../backoffice/shop-scoped-reader';
import type { SaleWithLines } from '../backoffice/read-models';
import type { DigestResource } from '../common/pagination/digest-paginator';
import type { FeedResource } from '../common/pagination/feed-paginator';
import { ARRIVED_FEED_QUERY } from '../common/pagination/feed-query';
import type { KeysetResource } from '../common/pagination/keyset-resource';
import type { SaleDto } from './dto/sale.dto';
import { toSaleRecord } from './sale.mapper';

/** GET /sales: pages of the caller's sales with their lines, mapped to SaleDto. */
export const SALES: KeysetResource<ShopScopedReader, SaleWithLines, SaleDto> = {
  name: 'sales',
  read: (reader, query) => reader.salesPage(query),
  toRecord: toSaleRecord,
};

/** GET /sales/feed: the caller's sales in arrival order, as GET /sales maps them. */
export const SALES_FEED: FeedResource<ShopScopedReader, SaleWithLines, SaleDto> = {
  name: 'sales/feed',
  query: ARRIVED_FEED_QUERY,
  read: (reader, query) => reader.salesFeed(query),
  wait: (reader, query, position) => reader.awaitArrivals('sales', query, position),
  toRecord: toSaleRecord,
};

/** GET /sales/digest: a count and checksum per date of `soldAt`, over GET /sales's records. */
export const SALES_DIGEST: DigestResource<ShopScopedReader, SaleWithLines, SaleDto> = {
  list: SALES,
  dateOf: (record) => record.soldAt.slice(0, 10),
};
