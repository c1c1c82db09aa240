import type { PaymentRow } from '../backoffice/read-models';
import type { ShopScopedReader } from '../backoffice/shop-scoped-reader';
import type { KeysetResource } from '../common/pagination/keyset-resource';
import type { PaymentDto } from './dto/payment.dto';
import { toPaymentRecord } from './payment.mapper';

/** GET /payments: pages of the caller's payments, mapped to PaymentDto. */
export const PAYMENTS: KeysetResource<ShopScopedReader, PaymentRow, PaymentDto> = {
  name: 'payments',
  read: (reader, query) => reader.paymentsPage(query),
  toRecord: toPaymentRecord,
};
