import type { CanonicalRecord } from '../common/pagination/day-checksums';
import type { CashMovementRow } from './cash-movements.source';
import { decimal, localDateTime, nullableString } from '../common/sql-values';
import type { CashMovementDto } from './dto/cash-movement.dto';

/** A cash movement as GET /cash-movements returns it: money at the column's scale, no zone. */
export function toCashMovementRecord(row: CashMovementRow): CashMovementDto {
  return {
    id: row.id,
    shopCode: row.shop_code,
    registerCode: row.register_code,
    movedAt: localDateTime(row.moved_at),
    kind: row.kind,
    amount: decimal(row.amount, 2),
    currency: row.currency,
    reason: nullableString(row.reason),
    employeeCode: nullableString(row.employee_code),
    saleId: nullableString(row.sale_id),
  };
}

/**
 * The same cash movement as the digest's checksum reads it (CanonicalRecord):
 * toCashMovementRecord's fields and values, its keys in JCS order, written straight from the row.
 */
export function toCanonicalCashMovement(row: CashMovementRow): CanonicalRecord {
  return {
    amount: decimal(row.amount, 2),
    currency: row.currency,
    employeeCode: nullableString(row.employee_code),
    id: row.id,
    kind: row.kind,
    movedAt: localDateTime(row.moved_at),
    reason: nullableString(row.reason),
    registerCode: row.register_code,
    saleId: nullableString(row.sale_id),
    shopCode: row.shop_code,
  };
}
