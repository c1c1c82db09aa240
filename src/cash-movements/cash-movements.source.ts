import {
  defineSource,
  derived,
  nullable,
  SHOP_TIME_ZONE,
  sql,
  type SourceRow,
} from '../catalogue/source';

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
  derived: {
    /** The shop's IANA zone (bo_shops.time_zone); NULL without a shop row. */
    time_zone: SHOP_TIME_ZONE,
    /**
     * Its drawer session's business date, 'YYYY-MM-DD' (docs/database.md, "Drawer sessions and
     * business days"); outside any session, the date of its own moved_at.
     */
    business_date: derived(sql('DATE'), {
      kind: 'sessionDate',
      partition: ['shop_code', 'register_code'],
      marker: 'kind',
      opens: 'OPENING_FLOAT',
      closes: 'CLOSING_COUNT',
      index: 'ix_pos_cash_movements_shop_moved',
    }),
  },
  time: 'moved_at',
});

export type CashMovementRow = SourceRow<typeof CASH_MOVEMENTS>;
