import type { KeysetResource } from '../common/pagination/keyset-resource';
import { decimal, localDateTime, nullableString } from '../common/sql-values';

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

export const PAYMENTS: KeysetResource<PaymentRecord> = {
  name: 'payments',
  table: 'pos_payments',
  timeColumn: 'paid_at',
  select:
    'CAST(x.id AS CHAR) AS id, CAST(x.sale_id AS CHAR) AS sale_id, x.shop_code, x.register_code, ' +
    'x.paid_at, x.method, x.amount, x.currency, x.card_brand, x.reference',
  toRecord: (row) => ({
    id: String(row.id),
    saleId: String(row.sale_id),
    shopCode: String(row.shop_code),
    registerCode: String(row.register_code),
    paidAt: localDateTime(String(row.paid_at)),
    method: String(row.method),
    amount: decimal(row.amount, 2),
    currency: String(row.currency),
    cardBrand: nullableString(row.card_brand),
    reference: nullableString(row.reference),
  }),
};
