/** The three list resources of the cursor specs, with the table and time column each reads. */
export const TABLE = {
  sales: ['pos_sales', 'sold_at'],
  payments: ['pos_payments', 'paid_at'],
  'cash-movements': ['pos_cash_movements', 'moved_at'],
} as const;
export type Resource = keyof typeof TABLE;
export const RESOURCES = Object.keys(TABLE) as Resource[];
/** The period the walks read: the whole of 2026. */
export const YEAR = 'From=2026-01-01T00:00:00&To=2027-01-01T00:00:00';
