import { defineSource, nullable, sql, type SourceRow } from '../backoffice/source';

/**
 * pos_cash_movements: GET /cash-movements in (moved_at, id) order, GET /cash-movements/feed in
 * arrival order.
 */
export const CASH_MOVEMENTS = defineSource({
  table: 'pos_cash_movements',
  columns: {
    id: sql('BIGINT UNSIGNED'),
    shop_code: sql('VARCHAR(16)'),
    register_code: sql('VARCHAR(16)'),
    /** Shop-local, stored form. */
    moved_at: sql('DATETIME(3)'),
    kind: sql('VARCHAR(16)'),
    amount: sql('DECIMAL(15,2)'),
    currency: sql('CHAR(3)'),
    reason: nullable('VARCHAR(255)'),
    employee_code: nullable('VARCHAR(32)'),
    sale_id: nullable('BIGINT UNSIGNED'),
  },
  time: 'moved_at',
});

export type CashMovementRow = SourceRow<typeof CASH_MOVEMENTS>;
