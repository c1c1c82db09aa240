import type { CashMovementRow } from '../backoffice/read-models';
import type { ShopScopedReader } from '../backoffice/shop-scoped-reader';
import type { DigestResource } from '../common/pagination/digest-paginator';
import type { FeedResource } from '../common/pagination/feed-paginator';
import { FEED_QUERY } from '../common/pagination/feed-query';
import type { KeysetResource } from '../common/pagination/keyset-resource';
import { toCashMovementRecord } from './cash-movement.mapper';
import type { CashMovementDto } from './dto/cash-movement.dto';

/** GET /cash-movements: pages of the caller's cash movements, mapped to CashMovementDto. */
export const CASH_MOVEMENTS: KeysetResource<ShopScopedReader, CashMovementRow, CashMovementDto> = {
  name: 'cash-movements',
  read: (reader, query) => reader.cashMovementsPage(query),
  toRecord: toCashMovementRecord,
};

/** GET /cash-movements/feed: the caller's cash movements in arrival order, as GET /cash-movements maps them. */
export const CASH_MOVEMENTS_FEED: FeedResource<ShopScopedReader, CashMovementRow, CashMovementDto> =
  {
    name: 'cash-movements/feed',
    query: FEED_QUERY,
    read: (reader, query) => reader.cashMovementsFeed(query),
    wait: (reader, query, position) => reader.awaitArrivals('cash-movements', query, position),
    toRecord: toCashMovementRecord,
  };

/** GET /cash-movements/digest: a count and checksum per date of `movedAt`, over GET /cash-movements's records. */
export const CASH_MOVEMENTS_DIGEST: DigestResource<
  ShopScopedReader,
  CashMovementRow,
  CashMovementDto
> = {
  list: CASH_MOVEMENTS,
  dateOf: (record) => record.movedAt.slice(0, 10),
};
