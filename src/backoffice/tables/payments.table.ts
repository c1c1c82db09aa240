import type { KeysetSource } from '../../common/pagination/keyset-query';
import type { SqlReader } from '../../common/pagination/keyset-resource';
import type { SaleRow } from '../read-models';

/** pos_payments for keyset reads, in (paid_at, id) order. */
export const PAYMENTS: KeysetSource = {
  table: 'pos_payments',
  timeColumn: 'paid_at',
  select:
    'CAST(x.id AS CHAR) AS id, CAST(x.sale_id AS CHAR) AS sale_id, x.shop_code, x.register_code, ' +
    'x.paid_at, x.method, x.amount, x.currency, x.card_brand, x.reference',
};

/**
 * The distinct payment methods of each sale of a slice (read through the caller's scope), one
 * query; a sale without payment is absent.
 */
export async function paymentMethodsOf(
  sales: readonly SaleRow[],
  db: SqlReader,
): Promise<Map<string, string[]>> {
  const bySale = new Map<string, string[]>();
  if (sales.length === 0) return bySale;
  const rows = await db.query(
    `SELECT DISTINCT CAST(p.sale_id AS CHAR) AS sale_id, p.method FROM pos_payments p
      WHERE p.sale_id IN (${sales.map(() => '?').join(', ')})`,
    sales.map((s) => BigInt(s.id)),
  );
  for (const row of rows as unknown as Array<{ sale_id: string; method: string }>) {
    const methods = bySale.get(row.sale_id);
    if (methods) methods.push(row.method);
    else bySale.set(row.sale_id, [row.method]);
  }
  return bySale;
}
