import {
  type Attached,
  defineSource,
  nullable,
  SHOP_TIME_ZONE,
  sql,
  type RowOf,
  type SourceRow,
  withAttached,
} from '../catalogue/source';
import { decimal } from '../common/sql-values';

/** The lines of a sale (pos_sale_lines), attached to each sale of a page, in line order. */
export const SALE_LINES = {
  as: 'lines',
  table: 'pos_sale_lines',
  parentId: 'sale_id',
  columns: {
    sale_id: sql('BIGINT UNSIGNED'),
    line_no: sql('SMALLINT UNSIGNED'),
    item_code: sql('VARCHAR(32)'),
    description: sql('VARCHAR(255)'),
    quantity: sql('DECIMAL(15,4)'),
    unit_price: sql('DECIMAL(15,4)'),
    discount: sql('DECIMAL(15,2)'),
    tax_rate: sql('DECIMAL(5,2)'),
    net: sql('DECIMAL(15,2)'),
    tax: sql('DECIMAL(15,2)'),
    gross: sql('DECIMAL(15,2)'),
  },
  orderBy: ['line_no'],
} as const satisfies Attached;

/**
 * pos_sales with their lines: GET /sales in (sold_at, id) order, GET /sales/feed in arrival
 * order (created_at is when a sale reached the back office), and the report's chunks.
 */
export const SALES = withAttached(
  defineSource({
    table: 'pos_sales',
    columns: {
      id: sql('BIGINT UNSIGNED'),
      shop_code: sql('VARCHAR(16)'),
      register_code: sql('VARCHAR(16)'),
      ticket_number: sql('VARCHAR(32)'),
      /** SALE | RETURN */
      kind: sql('VARCHAR(8)'),
      /** COMPLETED | VOIDED */
      status: sql('VARCHAR(12)'),
      /** 'YYYY-MM-DD' */
      business_date: sql('DATE'),
      /** Shop-local, stored form. */
      sold_at: sql('DATETIME(3)'),
      currency: sql('CHAR(3)'),
      total_net: sql('DECIMAL(15,2)'),
      total_tax: sql('DECIMAL(15,2)'),
      total_discount: sql('DECIMAL(15,2)'),
      total_gross: sql('DECIMAL(15,2)'),
      employee_code: nullable('VARCHAR(32)'),
      customer_code: nullable('VARCHAR(32)'),
      original_sale_id: nullable('BIGINT UNSIGNED'),
    },
    derived: {
      /** The shop's IANA zone (bo_shops.time_zone); NULL without a shop row. */
      time_zone: SHOP_TIME_ZONE,
    },
    time: 'sold_at',
    arrivedAt: 'created_at',
  }),
  SALE_LINES,
);

/** A sale with its lines, as the drivers return them. */
export type SaleRow = SourceRow<typeof SALES>;

type SaleLineRow = RowOf<typeof SALE_LINES.columns>;

/**
 * A sale line's own fields as the contract writes them, wherever a line appears (the lines of
 * GET /sales and the rows of TransactionDetailReport): quantities and prices at 4 decimals, the
 * rest of the money at 2, as their columns hold them.
 */
export function saleLineValues(line: SaleLineRow) {
  return {
    lineNo: line.line_no,
    itemCode: line.item_code,
    description: line.description,
    quantity: decimal(line.quantity, 4),
    unitPrice: decimal(line.unit_price, 4),
    discount: decimal(line.discount, 2),
    taxRate: decimal(line.tax_rate, 2),
    net: decimal(line.net, 2),
    tax: decimal(line.tax, 2),
    gross: decimal(line.gross, 2),
  };
}
