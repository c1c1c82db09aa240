import type { KeysetSource } from '../../common/pagination/keyset-query';

/** pos_cash_movements for keyset reads, in (moved_at, id) order. */
export const CASH_MOVEMENTS: KeysetSource = {
  table: 'pos_cash_movements',
  timeColumn: 'moved_at',
  select:
    'CAST(x.id AS CHAR) AS id, x.shop_code, x.register_code, x.moved_at, x.kind, x.amount, x.currency, ' +
    'x.reason, x.employee_code, CAST(x.sale_id AS CHAR) AS sale_id',
};
