import type { PaymentRow } from './payments.source';
import { decimal, localDateTime, nullableString } from '../common/sql-values';
import type { PaymentDto } from './dto/payment.dto';

/** A payment as GET /payments returns it: money at the column's scale, date-time without zone. */
export function toPaymentRecord(row: PaymentRow): PaymentDto {
  return {
    id: row.id,
    saleId: row.sale_id,
    shopCode: row.shop_code,
    registerCode: row.register_code,
    paidAt: localDateTime(row.paid_at),
    method: row.method,
    amount: decimal(row.amount, 2),
    currency: row.currency,
    cardBrand: nullableString(row.card_brand),
    reference: nullableString(row.reference),
  };
}
