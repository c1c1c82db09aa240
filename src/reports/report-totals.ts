import { formatCents, toCents } from './cents';
import type { TransactionDetailRow } from './transaction-detail.row';

/** Sums of one currency's lines, as decimal strings with two decimals. */
export interface CurrencyTotals {
  currency: string;
  net: string;
  tax: string;
  discount: string;
  gross: string;
}

/**
 * The totals of a report. Lines of VOIDED sales are listed as rows but counted only in
 * voidedSales/voidedLines: they never took place, so they are not in the amounts. Amounts are
 * summed per currency (shops of different currencies cannot be added up).
 */
export interface ReportTotals {
  /** Sales with at least one row, VOIDED ones excepted. */
  sales: number;
  /** Rows of those sales. */
  lines: number;
  voidedSales: number;
  voidedLines: number;
  /** One entry per currency, sorted by currency code; empty when nothing was counted. */
  byCurrency: CurrencyTotals[];
}

export const VOIDED = 'VOIDED';

interface Sums {
  net: bigint;
  tax: bigint;
  discount: bigint;
  gross: bigint;
}

/** Adds rows up while they stream, in exact integer cents. Rows of one sale must be consecutive. */
export class ReportTotalsAccumulator {
  private sales = 0;
  private lines = 0;
  private voidedSales = 0;
  private voidedLines = 0;
  private lastSaleId: string | null = null;
  private readonly sums = new Map<string, Sums>();

  add(row: TransactionDetailRow): void {
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

  result(): ReportTotals {
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
