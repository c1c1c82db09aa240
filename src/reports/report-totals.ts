import { formatCents, toCents } from './cents';
import type { ReportTotalsDto } from './dto/report-totals.dto';
import type { TransactionDetailRowDto } from './dto/transaction-detail-row.dto';

const VOIDED = 'VOIDED';

interface Sums {
  net: bigint;
  tax: bigint;
  discount: bigint;
  gross: bigint;
}

/**
 * Adds rows up while they stream, in exact integer cents. Rows of one sale must be consecutive.
 * Lines of VOIDED sales are counted only in voidedSales/voidedLines (ReportTotalsDto).
 */
export class ReportTotalsAccumulator {
  private sales = 0;
  private lines = 0;
  private voidedSales = 0;
  private voidedLines = 0;
  private lastSaleId: string | null = null;
  private readonly sums = new Map<string, Sums>();

  add(row: TransactionDetailRowDto): void {
    const newSale = row.saleId !== this.lastSaleId;
    this.lastSaleId = row.saleId;
    if (row.status === VOIDED) {
      if (newSale) this.voidedSales++;
      this.voidedLines++;
      return;
    }
    if (newSale) this.sales++;
    this.lines++;
    let sums = this.sums.get(row.currency);
    if (!sums) {
      sums = { net: 0n, tax: 0n, discount: 0n, gross: 0n };
      this.sums.set(row.currency, sums);
    }
    sums.net += toCents(row.net);
    sums.tax += toCents(row.tax);
    sums.discount += toCents(row.discount);
    sums.gross += toCents(row.gross);
  }

  result(): ReportTotalsDto {
    const byCurrency = [...this.sums.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([currency, s]) => ({
        currency,
        net: formatCents(s.net),
        tax: formatCents(s.tax),
        discount: formatCents(s.discount),
        gross: formatCents(s.gross),
      }));
    return {
      sales: this.sales,
      lines: this.lines,
      voidedSales: this.voidedSales,
      voidedLines: this.voidedLines,
      byCurrency,
    };
  }
}
