import {
  type Attached,
  defineSource,
  derived,
  nullable,
  SHOP_TIME_ZONE,
  sql,
  type SourceRow,
} from '../catalogue/source';

/** pos_payments: GET /payments in (paid_at, id) order, GET /payments/feed in arrival order. */
export const PAYMENTS = defineSource({
  table: 'pos_payments',
  columns: {
    id: sql('BIGINT UNSIGNED'),
    sale_id: sql('BIGINT UNSIGNED'),
    shop_code: sql('VARCHAR(16)'),
    register_code: sql('VARCHAR(16)'),
    /** Shop-local, stored form. */
    paid_at: sql('DATETIME(3)'),
    method: sql('VARCHAR(16)'),
    amount: sql('DECIMAL(15,2)'),
    currency: sql('CHAR(3)'),
    card_brand: nullable('VARCHAR(16)'),
    reference: nullable('VARCHAR(64)'),
  },
  derived: {
    /** The shop's IANA zone (bo_shops.time_zone); NULL without a shop row. */
    time_zone: SHOP_TIME_ZONE,
    /** Its sale's business date (pos_sales.business_date by sale_id), 'YYYY-MM-DD'. */
    business_date: derived(sql('DATE'), {
      kind: 'lookup',
      table: 'pos_sales',
      key: 'id',
      by: 'sale_id',
      column: 'business_date',
    }),
  },
  time: 'paid_at',
});

export type PaymentRow = SourceRow<typeof PAYMENTS>;

const METHOD_COLUMNS = { sale_id: sql('BIGINT UNSIGNED'), method: sql('VARCHAR(16)') };

/** The distinct payment methods of each sale of a page (the report's), attached as `payment_methods`. */
export const PAYMENT_METHODS: Attached<'payment_methods', typeof METHOD_COLUMNS> = {
  as: 'payment_methods',
  table: 'pos_payments',
  parentId: 'sale_id',
  columns: METHOD_COLUMNS,
  orderBy: [],
  distinct: true,
};
