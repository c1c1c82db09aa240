import type { CanonicalRecord } from '../common/pagination/day-checksums';
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

/**
 * The same payment as the digest's checksum reads it (CanonicalRecord): toPaymentRecord's fields
 * and values, its keys in JCS order, written straight from the row.
 */
export function toCanonicalPayment(row: PaymentRow): CanonicalRecord {
  return {
    amount: decimal(row.amount, 2),
    cardBrand: nullableString(row.card_brand),
    currency: row.currency,
    id: row.id,
    method: row.method,
    paidAt: localDateTime(row.paid_at),
    reference: nullableString(row.reference),
    registerCode: row.register_code,
    saleId: row.sale_id,
    shopCode: row.shop_code,
  };
}
