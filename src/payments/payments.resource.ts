import type { PaymentRow } from '../backoffice/read-models';
import type { ShopScopedReader } from '../backoffice/shop-scoped-reader';
import type { KeysetResource } from '../common/pagination/keyset-resource';
import { toPaymentRecord } from './payment.mapper';

/** A payment of a sale; refunds are negative. */
export interface PaymentRecord {
  id: string;
  saleId: string;
  shopCode: string;
  registerCode: string;
  /** Shop-local date-time, without zone. */
  paidAt: string;
  /** CASH | CARD | VOUCHER | GIFT_CARD | TRANSFER | OTHER */
  method: string;
  amount: string;
  currency: string;
  cardBrand: string | null;
  reference: string | null;
}

/** GET /payments: pages of the caller's payments, mapped to PaymentRecord. */
export const PAYMENTS: KeysetResource<ShopScopedReader, PaymentRow, PaymentRecord> = {
  name: 'payments',
  read: (reader, query) => reader.paymentsPage(query),
  toRecord: toPaymentRecord,
};
