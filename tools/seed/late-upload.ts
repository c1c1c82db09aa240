import type { DataSource } from 'typeorm';

/** 'YYYY-MM-DD HH:MM:SS.mmm' of a moment, as the tables store date-times. */
const stored = (moment: Date): string => moment.toISOString().slice(0, 23).replace('T', ' ');

/**
 * Appends one late upload, for the demo: a copy of the shop's latest completed sale (its lines and
 * payments too) rung up `daysLate` days before `now` and reaching the back office at `now`. Its id
 * is the highest, its soldAt days behind: a period walk already past that day never shows it,
 * the sales feed does (docs/sync.md). Returns the new sale's id.
 */
export async function appendLateUpload(
  db: DataSource,
  shopCode: string,
  now: Date,
  daysLate = 3,
): Promise<string> {
  const [model] = await db.query<Array<{ id: number | string; register_code: string }>>(
    `SELECT id, register_code FROM pos_sales WHERE shop_code = ? AND kind = 'SALE' AND status = 'COMPLETED'
      ORDER BY id DESC LIMIT 1`,
    [shopCode],
  );
  if (!model) throw new Error(`no sale of ${shopCode} to copy`);
  const soldAt = stored(new Date(now.getTime() - daysLate * 86_400_000));
  await db.query(
    `INSERT INTO pos_sales (shop_code, register_code, ticket_number, kind, status, business_date, sold_at,
       currency, total_net, total_tax, total_discount, total_gross, employee_code, customer_code,
       original_sale_id, created_at)
     SELECT shop_code, register_code, ?, kind, status, ?, ?, currency, total_net, total_tax,
       total_discount, total_gross, employee_code, customer_code, NULL, ?
     FROM pos_sales WHERE id = ?`,
    [`${model.register_code}-LATE01`, soldAt.slice(0, 10), soldAt, stored(now), model.id],
  );
  const [{ id }] = await db.query<Array<{ id: number | string }>>(
    'SELECT MAX(id) AS id FROM pos_sales',
  );
  await db.query(
    `INSERT INTO pos_sale_lines (sale_id, line_no, item_code, description, quantity, unit_price,
       discount, tax_rate, net, tax, gross)
     SELECT ?, line_no, item_code, description, quantity, unit_price, discount, tax_rate, net, tax, gross
     FROM pos_sale_lines WHERE sale_id = ?`,
    [id, model.id],
  );
  await db.query(
    `INSERT INTO pos_payments (sale_id, shop_code, register_code, paid_at, method, amount, currency,
       card_brand, reference)
     SELECT ?, shop_code, register_code, ?, method, amount, currency, card_brand, NULL
     FROM pos_payments WHERE sale_id = ?`,
    [id, soldAt, model.id],
  );
  return String(id);
}
