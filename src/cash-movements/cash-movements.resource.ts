import { decimal, localDateTime, nullableString } from '../common/sql-values';
import { instantOf } from '../common/zoned-time';
import { defineResource } from '../catalogue/resource';
import { CASH_MOVEMENT_EXAMPLE, CashMovementDto } from './cash-movement.dto';
import { CASH_MOVEMENTS, type CashMovementRow } from './cash-movements.source';

/** A cash movement as GET /cash-movements returns it: money at the column's scale, no zone. */
export function toCashMovementRecord(row: CashMovementRow): CashMovementDto {
  return {
    id: row.id,
    shopCode: row.shop_code,
    registerCode: row.register_code,
    movedAt: localDateTime(row.moved_at),
    movedAtUtc: instantOf(row.moved_at, row.time_zone),
    businessDate: row.business_date,
    kind: row.kind,
    amount: decimal(row.amount, 2),
    currency: row.currency,
    reason: nullableString(row.reason),
    employeeCode: nullableString(row.employee_code),
    saleId: nullableString(row.sale_id),
  };
}

/** cash-movements: the declaration the catalogue (src/app.catalogue.ts) lists. */
export const CASH_MOVEMENTS_RESOURCE = defineResource({
  route: 'cash-movements',
  tag: { name: 'Cash movements', description: 'Movements of register cash drawers, by cursor.' },
  source: CASH_MOVEMENTS,
  record: CashMovementDto,
  example: CASH_MOVEMENT_EXAMPLE,
  toRecord: toCashMovementRecord,
  datedBy: 'movedAt',
  list: {
    summary: 'List register cash movements',
    description:
      'Movements of the cash drawers of the registers of the shops in the token claims, by ' +
      '`movedAt`: opening floats, cash sales and refunds, cash in and out, closing counts.',
  },
  feed: {
    summary: 'Register cash movements in the order they reached the back office',
    description:
      'Movements of the cash drawers of the registers of the shops in the token claims, in arrival order (their id), whatever their `movedAt`. The back office records no arrival time for a movement, so this feed takes no From: its first call starts at the first movement.',
  },
  // The fields that joined the digests after version 1 (docs/sync.md, "Digest versions").
  digest: { since: { movedAtUtc: 2, businessDate: 2 } },
});
