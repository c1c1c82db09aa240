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
