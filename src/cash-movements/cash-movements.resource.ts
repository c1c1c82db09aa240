import type { KeysetResource } from '../common/pagination/keyset-resource';
import { decimal, localDateTime, nullableString } from '../common/sql-values';

/** A movement of a register's cash drawer: + into the drawer, - out of it. */
export interface CashMovementRecord {
  id: string;
  shopCode: string;
  registerCode: string;
  /** Shop-local date-time, without zone. */
  movedAt: string;
  /** OPENING_FLOAT | SALE | REFUND | CASH_IN | CASH_OUT | CLOSING_COUNT */
  kind: string;
  amount: string;
  currency: string;
  reason: string | null;
  employeeCode: string | null;
  saleId: string | null;
}

export const CASH_MOVEMENTS: KeysetResource<CashMovementRecord> = {
  name: 'cash-movements',
  table: 'pos_cash_movements',
  timeColumn: 'moved_at',
  select:
    'CAST(x.id AS CHAR) AS id, x.shop_code, x.register_code, x.moved_at, x.kind, x.amount, x.currency, ' +
    'x.reason, x.employee_code, CAST(x.sale_id AS CHAR) AS sale_id',
  toRecord: (row) => ({
    id: String(row.id),
    shopCode: String(row.shop_code),
    registerCode: String(row.register_code),
    movedAt: localDateTime(String(row.moved_at)),
    kind: String(row.kind),
    amount: decimal(row.amount, 2),
    currency: String(row.currency),
    reason: nullableString(row.reason),
    employeeCode: nullableString(row.employee_code),
    saleId: nullableString(row.sale_id),
  }),
};
