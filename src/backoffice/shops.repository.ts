import { Injectable } from '@nestjs/common';
import { ReadRouter } from '../database/replicas/read-router';

export interface Shop {
  code: string;
  name: string;
  timeZone: string;
  currency: string;
}

/** Read model over bo_shops; read from a replica when one serves (ReadRouter). */
@Injectable()
export class ShopsRepository {
  constructor(private readonly reads: ReadRouter) {}

  /** The shops among `codes`, in code order; unknown codes are simply absent. */
  async findByCodes(codes: readonly string[]): Promise<Shop[]> {
    if (codes.length === 0) return [];
    const rows = await this.reads.reader().query(
      `SELECT code, name, time_zone, currency FROM bo_shops
        WHERE code IN (${codes.map(() => '?').join(', ')}) ORDER BY code`,
      [...codes],
    );
    return rows.map((r) => ({
      code: String(r.code),
      name: String(r.name),
      timeZone: String(r.time_zone),
      currency: String(r.currency),
    }));
  }
}
