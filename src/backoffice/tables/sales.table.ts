import type { ArrivalSource } from '../../common/pagination/feed-query';
import type { KeysetSource } from '../../common/pagination/keyset-query';
import type { SqlReader } from '../../common/pagination/keyset-resource';
import type { SaleLineRow, SaleRow, SaleWithLines } from '../read-models';

/** pos_sales for keyset reads, in (sold_at, id) order. */
export const SALES: KeysetSource = {
  table: 'pos_sales',
  timeColumn: 'sold_at',
  select:
    'CAST(x.id AS CHAR) AS id, x.shop_code, x.register_code, x.ticket_number, x.kind, x.status, ' +
    'x.business_date, x.sold_at, x.currency, x.total_net, x.total_tax, x.total_discount, x.total_gross, ' +
    'x.employee_code, x.customer_code, CAST(x.original_sale_id AS CHAR) AS original_sale_id',
};

/** pos_sales for the arrival feed, in id order; created_at is when a sale reached the back office. */
export const SALE_ARRIVALS: ArrivalSource = { ...SALES, arrivedAt: 'created_at' };

const SALE_LINE_COLUMNS =
  'l.line_no, l.item_code, l.description, l.quantity, l.unit_price, l.discount, l.tax_rate, l.net, l.tax, l.gross';

/**
 * Gives each sale of a slice its lines: one query for the whole slice, in sale and line order.
 * The sales are the slice's own rows (read through the caller's scope): no id comes from outside.
 */
export async function withLines(sales: SaleRow[], db: SqlReader): Promise<SaleWithLines[]> {
  const result = sales as SaleWithLines[];
  if (result.length === 0) return result;
  const byId = new Map<string, SaleLineRow[]>();
  for (const sale of result) {
    sale.lines = [];
    byId.set(sale.id, sale.lines);
  }
  const rows = await db.query(
    `SELECT CAST(l.sale_id AS CHAR) AS sale_id, ${SALE_LINE_COLUMNS} FROM pos_sale_lines l
      WHERE l.sale_id IN (${result.map(() => '?').join(', ')}) ORDER BY l.sale_id, l.line_no`,
    result.map((s) => BigInt(s.id)),
  );
  for (const row of rows as unknown as SaleLineRow[]) byId.get(row.sale_id)?.push(row);
  return result;
}
