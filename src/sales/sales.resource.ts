import type { KeysetResource, Row, SqlReader } from '../common/pagination/keyset-resource';
import { decimal, localDateTime, nullableString } from '../common/sql-values';
import type { SaleLineRecord, SaleRecord } from './sale.record';

export function toSaleLine(row: Row): SaleLineRecord {
  return {
    lineNo: Number(row.line_no),
    itemCode: String(row.item_code),
    description: String(row.description),
    quantity: decimal(row.quantity, 4),
    unitPrice: decimal(row.unit_price, 4),
    discount: decimal(row.discount, 2),
    taxRate: decimal(row.tax_rate, 2),
    net: decimal(row.net, 2),
    tax: decimal(row.tax, 2),
    gross: decimal(row.gross, 2),
  };
}

export const SALE_LINE_COLUMNS =
  'l.line_no, l.item_code, l.description, l.quantity, l.unit_price, l.discount, l.tax_rate, l.net, l.tax, l.gross';

/** The lines of a page of sales: one query, in sale and line order. */
async function attachLines(sales: SaleRecord[], db: SqlReader): Promise<void> {
  const byId = new Map(sales.map((s) => [s.id, s]));
  const rows = await db.query(
    `SELECT CAST(l.sale_id AS CHAR) AS sale_id, ${SALE_LINE_COLUMNS} FROM pos_sale_lines l
      WHERE l.sale_id IN (${sales.map(() => '?').join(', ')}) ORDER BY l.sale_id, l.line_no`,
    sales.map((s) => BigInt(s.id)),
  );
  for (const row of rows) byId.get(String(row.sale_id))?.lines.push(toSaleLine(row));
}

export const SALES: KeysetResource<SaleRecord> = {
  name: 'sales',
  table: 'pos_sales',
  timeColumn: 'sold_at',
  select:
    'CAST(x.id AS CHAR) AS id, x.shop_code, x.register_code, x.ticket_number, x.kind, x.status, ' +
    'x.business_date, x.sold_at, x.currency, x.total_net, x.total_tax, x.total_discount, x.total_gross, ' +
    'x.employee_code, x.customer_code, CAST(x.original_sale_id AS CHAR) AS original_sale_id',
  toRecord: (row) => ({
    id: String(row.id),
    shopCode: String(row.shop_code),
    registerCode: String(row.register_code),
    ticketNumber: String(row.ticket_number),
    kind: String(row.kind),
    status: String(row.status),
    businessDate: String(row.business_date),
    soldAt: localDateTime(String(row.sold_at)),
    currency: String(row.currency),
    totalNet: decimal(row.total_net, 2),
    totalTax: decimal(row.total_tax, 2),
    totalDiscount: decimal(row.total_discount, 2),
    totalGross: decimal(row.total_gross, 2),
    employeeCode: nullableString(row.employee_code),
    customerCode: nullableString(row.customer_code),
    originalSaleId: nullableString(row.original_sale_id),
    lines: [],
  }),
  attachChildren: attachLines,
};
