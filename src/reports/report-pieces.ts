import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ReportChunk } from '../backoffice/read-models';
import type { KeysetPosition } from '../common/pagination/keyset-resource';
import { ReportTotalsAccumulator } from './report-totals';
import type { ReportWriter } from './report-writers';
import type { TransactionDetailRowDto } from './dto/transaction-detail-row.dto';
import { joinPaymentMethods, toReportRows } from './report-row.mapper';

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
