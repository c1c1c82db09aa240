import { col, defineSource, type SourceRow } from '../backoffice/source';

/**
 * pos_cash_movements: GET /cash-movements in (moved_at, id) order, GET /cash-movements/feed in
 * arrival order.
 */
export const CASH_MOVEMENTS = defineSource({
  table: 'pos_cash_movements',
  columns: {
    id: col.id,
    shop_code: col.text,
    register_code: col.text,
    /** Shop-local, stored form. */
    moved_at: col.text,
    kind: col.text,
    amount: col.decimal,
    currency: col.text,
    reason: col.nullableText,
    employee_code: col.nullableText,
    sale_id: col.nullableId,
  },
  time: 'moved_at',
});

export type CashMovementRow = SourceRow<typeof CASH_MOVEMENTS>;
