import type { PaymentRow } from '../backoffice/read-models';
import type { ShopScopedReader } from '../backoffice/shop-scoped-reader';
import type { DigestResource } from '../common/pagination/digest-paginator';
import type { FeedResource } from '../common/pagination/feed-paginator';
import { FEED_QUERY } from '../common/pagination/feed-query';
import type { KeysetResource } from '../common/pagination/keyset-resource';
import type { PaymentDto } from './dto/payment.dto';
import { toPaymentRecord } from './payment.mapper';

/** GET /payments: pages of the caller's payments, mapped to PaymentDto. */
export const PAYMENTS: KeysetResource<ShopScopedReader, PaymentRow, PaymentDto> = {
  name: 'payments',
  read: (reader, query) => reader.paymentsPage(query),
  toRecord: toPaymentRecord,
};

/** GET /payments/feed: the caller's payments in arrival order, as GET /payments maps them. */
export const PAYMENTS_FEED: FeedResource<ShopScopedReader, PaymentRow, PaymentDto> = {
  name: 'payments/feed',
  query: FEED_QUERY,
  read: (reader, query) => reader.paymentsFeed(query),
  wait: (reader, query, position) => reader.awaitArrivals('payments', query, position),
  toRecord: toPaymentRecord,
};

/** GET /payments/digest: a count and checksum per date of `paidAt`, over GET /payments's records. */
export const PAYMENTS_DIGEST: DigestResource<ShopScopedReader, PaymentRow, PaymentDto> = {
  list: PAYMENTS,
  dateOf: (record) => record.paidAt.slice(0, 10),
};
