import { col, defineSource, type RowOf, type SourceRow, withAttached } from '../backoffice/source';
import { decimal } from '../common/sql-values';

/** The lines of a sale (pos_sale_lines), attached to each sale of a page, in line order. */
const LINE_COLUMNS = {
  sale_id: col.id,
  line_no: col.integer,
  item_code: col.text,
  description: col.text,
  quantity: col.decimal,
  unit_price: col.decimal,
  discount: col.decimal,
  tax_rate: col.decimal,
  net: col.decimal,
  tax: col.decimal,
  gross: col.decimal,
};

/**
 * pos_sales with their lines: GET /sales in (sold_at, id) order, GET /sales/feed in arrival
 * order (created_at is when a sale reached the back office), and the report's chunks.
 */
export const SALES = withAttached(
  defineSource({
    table: 'pos_sales',
    columns: {
      id: col.id,
      shop_code: col.text,
      register_code: col.text,
      ticket_number: col.text,
      /** SALE | RETURN */
      kind: col.text,
      /** COMPLETED | VOIDED */
      status: col.text,
      /** 'YYYY-MM-DD' */
      business_date: col.text,
      /** Shop-local, stored form. */
      sold_at: col.text,
      currency: col.text,
      total_net: col.decimal,
      total_tax: col.decimal,
      total_discount: col.decimal,
      total_gross: col.decimal,
      employee_code: col.nullableText,
      customer_code: col.nullableText,
      original_sale_id: col.nullableId,
    },
    time: 'sold_at',
    arrivedAt: 'created_at',
  }),
  {
    as: 'lines',
    table: 'pos_sale_lines',
    parentId: 'sale_id',
    columns: LINE_COLUMNS,
    orderBy: ['line_no'],
  },
);

/** A sale with its lines, as the drivers return them. */
export type SaleRow = SourceRow<typeof SALES>;

type SaleLineRow = RowOf<typeof LINE_COLUMNS>;

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

/** A sale line as its digest's checksum reads it: saleLineValues with its keys in JCS order. */
export function canonicalSaleLine(line: SaleLineRow) {
  return {
    description: line.description,
    discount: decimal(line.discount, 2),
    gross: decimal(line.gross, 2),
    itemCode: line.item_code,
    lineNo: line.line_no,
    net: decimal(line.net, 2),
    quantity: decimal(line.quantity, 4),
    tax: decimal(line.tax, 2),
    taxRate: decimal(line.tax_rate, 2),
    unitPrice: decimal(line.unit_price, 4),
  };
}
