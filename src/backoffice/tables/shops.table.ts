import type { SqlReader } from '../../common/pagination/keyset-resource';
import type { ShopRow } from '../read-models';

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
  return rows as unknown as ShopRow[];
}
