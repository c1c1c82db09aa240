import type { SqlReader } from '../../database/sql-reader';

/** A row of bo_shops. */
export type ShopRow = {
  code: string;
  name: string;
  time_zone: string;
  currency: string;
};

/**
 * The shops among `codes` (the caller's claims, at least one), in code order; unknown codes are
 * simply absent.
 */
export async function shopsAmong(codes: readonly string[], db: SqlReader): Promise<ShopRow[]> {
  const rows = await db.query(
    `SELECT code, name, time_zone, currency FROM bo_shops
      WHERE code IN (${codes.map(() => '?').join(', ')}) ORDER BY code`,
    [...codes],
  );
  // A type, not an interface: the driver's rows are checked against its columns' values.
  return rows as ShopRow[];
}
