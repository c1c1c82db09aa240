import type { DataSource } from 'typeorm';

const TABLES = {
  sales: ['pos_sales', 'sold_at', ''],
  payments: ['pos_payments', 'paid_at', ''],
  cashMovements: ['pos_cash_movements', 'moved_at', ''],
  // A drawer session is its opening float's row, dated by its opening.
  cashDrawerSessions: ['pos_cash_movements', 'moved_at', "AND kind = 'OPENING_FLOAT'"],
} as const;

export type Resource = keyof typeof TABLES;

/** The ids the service should list, read straight from the table, in the contract's order. */
export async function idsInDatabase(
  db: DataSource,
  resource: Resource,
  query: { shopCode: string; from: string; to: string },
): Promise<string[]> {
  const [table, at, only] = TABLES[resource];
  const rows = await db.query<Array<{ id: string | number }>>(
    `SELECT id FROM ${table} WHERE shop_code = ? AND ${at} >= ? AND ${at} < ? ${only} ORDER BY ${at}, id`,
    [query.shopCode, query.from.replace('T', ' '), query.to.replace('T', ' ')],
  );
  return rows.map((row) => String(row.id));
}
