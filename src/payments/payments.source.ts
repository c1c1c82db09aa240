import { type Attached, col, defineSource, type SourceRow } from '../backoffice/source';

/** pos_payments: GET /payments in (paid_at, id) order, GET /payments/feed in arrival order. */
export const PAYMENTS = defineSource({
  table: 'pos_payments',
  columns: {
    id: col.id,
    sale_id: col.id,
    shop_code: col.text,
    register_code: col.text,
    /** Shop-local, stored form. */
    paid_at: col.text,
    method: col.text,
    amount: col.decimal,
    currency: col.text,
    card_brand: col.nullableText,
    reference: col.nullableText,
  },
  time: 'paid_at',
});

export type PaymentRow = SourceRow<typeof PAYMENTS>;

const METHOD_COLUMNS = { sale_id: col.id, method: col.text };

/** The distinct payment methods of each sale of a page (the report's), attached as `payment_methods`. */
export const PAYMENT_METHODS: Attached<'payment_methods', typeof METHOD_COLUMNS> = {
  as: 'payment_methods',
  table: 'pos_payments',
  parentId: 'sale_id',
  columns: METHOD_COLUMNS,
  orderBy: [],
  distinct: true,
};
