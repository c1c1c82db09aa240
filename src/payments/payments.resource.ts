import { decimal, localDateTime, nullableString } from '../common/sql-values';
import { instantOf } from '../common/zoned-time';
import { defineResource } from '../catalogue/resource';
import { PAYMENT_EXAMPLE, PaymentDto } from './payment.dto';
import { PAYMENTS, type PaymentRow } from './payments.source';

/** A payment as GET /payments returns it: money at the column's scale, date-time without zone. */
export function toPaymentRecord(row: PaymentRow): PaymentDto {
  return {
    id: row.id,
    saleId: row.sale_id,
    shopCode: row.shop_code,
    registerCode: row.register_code,
    paidAt: localDateTime(row.paid_at),
    paidAtUtc: instantOf(row.paid_at, row.time_zone),
    businessDate: row.business_date,
    method: row.method,
    amount: decimal(row.amount, 2),
    currency: row.currency,
    cardBrand: nullableString(row.card_brand),
    reference: nullableString(row.reference),
  };
}

/** payments: the declaration the catalogue (src/app.catalogue.ts) lists. */
export const PAYMENTS_RESOURCE = defineResource({
  route: 'payments',
  tag: { name: 'Payments', description: 'Payments of sales, by cursor.' },
  source: PAYMENTS,
  record: PaymentDto,
  example: PAYMENT_EXAMPLE,
  toRecord: toPaymentRecord,
  datedBy: 'paidAt',
  list: {
    summary: 'List payments of sales',
    description:
      'Payments of the sales of the shops in the token claims, by `paidAt`; refunds are negative.',
  },
  feed: {
    summary: 'Payments in the order they reached the back office',
    description:
      'Payments of the sales of the shops in the token claims, in arrival order (their id), whatever their `paidAt`. The back office records no arrival time for a payment, so this feed takes no From: its first call starts at the first payment.',
  },
  // The fields that joined the digests after version 1 (docs/sync.md, "Digest versions").
  digest: { since: { paidAtUtc: 2, businessDate: 2 } },
});
