import {
  defineSource,
  SHOP_TIME_ZONE,
  sql,
  type SourceRow,
  withSession,
} from '../catalogue/source';

/**
 * The drawer sessions: pos_cash_movements' OPENING_FLOAT rows, GET /cash-drawer-sessions in
 * (moved_at, id) order, each with the movements of the session it opens (docs/database.md,
 * "Drawer sessions and business days"): its register's next movements up to and including the
 * next CLOSING_COUNT, or up to the next OPENING_FLOAT (the session stays open), or all of them.
 */
export const CASH_DRAWER_SESSIONS = withSession(
  defineSource({
    table: 'pos_cash_movements',
    columns: {
      id: sql('BIGINT UNSIGNED'),
      shop_code: sql('VARCHAR(16)'),
      register_code: sql('VARCHAR(16)'),
      /** Shop-local, stored form. */
      moved_at: sql('DATETIME(3)'),
      amount: sql('DECIMAL(15,2)'),
      currency: sql('CHAR(3)'),
    },
    derived: {
      /** The shop's IANA zone (bo_shops.time_zone), for the instants; NULL without a shop row. */
      time_zone: SHOP_TIME_ZONE,
    },
    time: 'moved_at',
    only: { kind: 'OPENING_FLOAT' },
  }),
  {
    as: 'movements',
    partition: ['shop_code', 'register_code'],
    marker: 'kind',
    opens: 'OPENING_FLOAT',
    closes: 'CLOSING_COUNT',
    columns: {
      id: sql('BIGINT UNSIGNED'),
      shop_code: sql('VARCHAR(16)'),
      register_code: sql('VARCHAR(16)'),
      moved_at: sql('DATETIME(3)'),
      kind: sql('VARCHAR(16)'),
      amount: sql('DECIMAL(15,2)'),
    },
  },
);

export type CashDrawerSessionRow = SourceRow<typeof CASH_DRAWER_SESSIONS>;
