import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface Shop {
  code: string;
  name: string;
  timeZone: string;
  currency: string;
}

/** Read model over bo_shops. */
@Injectable()
export class ShopsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The shops among `codes`, in code order; unknown codes are simply absent. */
  async findByCodes(codes: readonly string[]): Promise<Shop[]> {
    if (codes.length === 0) return [];
    const rows: Array<{ code: string; name: string; time_zone: string; currency: string }> =
      await this.db.query(
        `SELECT code, name, time_zone, currency FROM bo_shops
        WHERE code IN (${codes.map(() => '?').join(', ')}) ORDER BY code`,
        [...codes],
      );
    return rows.map((r) => ({
      code: r.code,
      name: r.name,
      timeZone: r.time_zone,
      currency: r.currency,
    }));
  }
}
