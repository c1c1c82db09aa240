import { setImmediate as nextTurn } from 'node:timers/promises';
import type { KeysetPosition } from '../sync/list/list.mode';
import type { SourceRow } from '../catalogue/source';
import { ReportTotalsAccumulator } from './report-totals';
import type { ReportWriter } from './report-writers';
import type { TransactionDetailRowDto } from './dto/transaction-detail-row.dto';
import { joinPaymentMethods, type ReportSale, toReportRows } from './report-row.mapper';
import type { REPORT_SALES } from './report.source';

/** One chunk of the transaction detail report: sales with their lines and payment methods. */
export interface ReportChunk {
  sales: ReportSale[];
  /** Sale id → the distinct methods of its payments; absent when the sale has no payment. */
  paymentMethods: Map<string, string[]>;
  /** Where the next chunk starts; null when this was the last one. */
  next: KeysetPosition | null;
}

/** A chunk of the report from a page of REPORT_SALES. */
export function reportChunk(
  rows: Array<SourceRow<typeof REPORT_SALES>>,
  next: KeysetPosition | null,
): ReportChunk {
  const paymentMethods = new Map<string, string[]>();
  for (const sale of rows) {
    if (sale.payment_methods.length === 0) continue;
    paymentMethods.set(
      sale.id,
      sale.payment_methods.map((payment) => payment.method),
    );
  }
  return { sales: rows, paymentMethods, next };
}

/** The text of the report, piece by piece: the opening, each chunk's rows, the totals. */
export async function* reportPieces(
  writer: ReportWriter,
  first: ReportChunk,
  read: (after: KeysetPosition) => Promise<ReportChunk>,
): AsyncGenerator<string> {
  const totals = new ReportTotalsAccumulator();
  yield writer.open();
  let chunk = first;
  for (;;) {
    const { sales, paymentMethods, next } = chunk;
    const rows: TransactionDetailRowDto[] = sales.flatMap((sale) =>
      toReportRows(sale, joinPaymentMethods(paymentMethods.get(sale.id) ?? [])),
    );
    for (const row of rows) totals.add(row);
    const text = writer.rows(rows);
    if (text) yield text;
    if (!next) break;
    // Let other requests run between chunks: with SQLite (a synchronous driver) nothing else would
    // yield to the event loop while the socket accepts data.
    await nextTurn();
    chunk = await read(next);
  }
  yield writer.close(totals.result());
}
