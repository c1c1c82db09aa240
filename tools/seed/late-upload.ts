import type { DataSource } from 'typeorm';
import { TABLES } from './bulk-insert';
import type { TableSpec } from './seed-tables';

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
    ...copyOf(TABLES.sales, 'id', model.id, {
      ticket_number: `${model.register_code}-LATE01`,
      business_date: soldAt.slice(0, 10),
      sold_at: soldAt,
      original_sale_id: null,
      created_at: stored(now),
    }),
  );
  const [{ id }] = await db.query<Array<{ id: number | string }>>(
    'SELECT MAX(id) AS id FROM pos_sales',
  );
  const sale = String(id);
  await db.query(...copyOf(TABLES.lines, 'sale_id', model.id, { sale_id: sale }));
  await db.query(
    ...copyOf(TABLES.payments, 'sale_id', model.id, {
      sale_id: sale,
      paid_at: soldAt,
      reference: null,
    }),
  );
  return sale;
}

/**
 * An `INSERT … SELECT` copying the rows of `spec.table` whose `where` column is `value`: every
 * column the seed writes (the source's declared ones) as it is, but `id` (a new one is given)
 * and the columns `set` gives new values.
 */
function copyOf(
  spec: TableSpec,
  where: string,
  value: number | string,
  set: Record<string, string | null>,
): [string, Array<string | number | null>] {
  const columns = spec.columns.filter((column) => column !== 'id');
  const selected = columns.map((column) => (column in set ? '?' : column));
  const params = columns.filter((column) => column in set).map((column) => set[column]);
  return [
    `INSERT INTO ${spec.table} (${columns.join(', ')}) SELECT ${selected.join(', ')} ` +
      `FROM ${spec.table} WHERE ${where} = ?`,
    [...params, value],
  ];
}
