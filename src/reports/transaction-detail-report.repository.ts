import { Injectable } from '@nestjs/common';
import { buildKeysetQuery } from '../common/pagination/keyset-query';
import type { Row, SqlReader } from '../common/pagination/keyset-resource';
import type { StoredDateTime } from '../common/local-date-time';
import { ReadRouter } from '../database/replicas/read-router';
import type { SaleRecord } from '../sales/sale.record';
import { SALES } from '../sales/sales.resource';
import { joinPaymentMethods } from './transaction-detail.row';

/** Position after the last sale of a chunk, in (sold_at, id) order. */
export interface ReportPosition {
  time: string;
  id: string;
}

/** Sales of one chunk, in (soldAt, id) order, with their lines and payment methods. */
export interface ReportChunk {
  sales: SaleRecord[];
  /** Sale id → joined payment methods ('CARD+CASH'); absent when the sale has no payment. */
  paymentMethods: Map<string, string>;
  /** Where the next chunk starts; null when this was the last one. */
  next: ReportPosition | null;
}

export interface ChunkRequest {
  shops: string[];
  from: StoredDateTime;
  to: StoredDateTime;
  after: ReportPosition | null;
  /** Sales per chunk. */
  limit: number;
}

/**
 * The report's reads: the sales of a period chunk by chunk with the very keyset query of
 * GET /sales (so both always agree), their lines in one query and their payment methods in one
 * query per chunk. No connection is held between chunks. Each chunk reads from one replica (or
 * the primary) through ReadRouter, so its sales, lines and payments agree.
 */
@Injectable()
export class TransactionDetailReportRepository {
  constructor(private readonly reads: ReadRouter) {}

  async readChunk(request: ChunkRequest): Promise<ReportChunk> {
    // Starting the range at the position itself (not only at From) gives SQLite an index range
    // that begins where the chunk does; without it each chunk rescans the period from its start.
    const from = request.after ? request.after.time : request.from;
    const { sql, params } = buildKeysetQuery(SALES, request.shops, { ...request, from });
    const db = this.reads.reader();
    const rows: Row[] = await db.query(sql, params);
    const hasMore = rows.length > request.limit;
    if (hasMore) rows.length = request.limit;
    const sales = rows.map((row) => SALES.toRecord(row));
    if (sales.length > 0 && SALES.attachChildren) await SALES.attachChildren(sales, db);
    const last = rows[rows.length - 1];
    return {
      sales,
      paymentMethods:
        sales.length > 0 ? await this.paymentMethods(sales, db) : new Map<string, string>(),
      next: hasMore ? { time: String(last.k_t), id: String(last.k_id) } : null,
    };
  }

  private async paymentMethods(sales: SaleRecord[], db: SqlReader): Promise<Map<string, string>> {
    const rows: Row[] = await db.query(
      `SELECT DISTINCT CAST(p.sale_id AS CHAR) AS sale_id, p.method FROM pos_payments p
        WHERE p.sale_id IN (${sales.map(() => '?').join(', ')})`,
      sales.map((s) => BigInt(s.id)),
    );
    const bySale = new Map<string, string[]>();
    for (const row of rows) {
      const id = String(row.sale_id);
      const methods = bySale.get(id) ?? [];
      methods.push(String(row.method));
      bySale.set(id, methods);
    }
    return new Map([...bySale].map(([id, methods]) => [id, joinPaymentMethods(methods)]));
  }
}
