import type { ReportTotals } from '../../reports/report-totals';
import { REPORT_COLUMNS, TransactionDetailRow } from '../../reports/transaction-detail.row';
import { SALE_EXAMPLE as SALE } from './record.examples';

const ROW: TransactionDetailRow = {
  shopCode: SALE.shopCode,
  registerCode: SALE.registerCode,
  saleId: SALE.id,
  ticketNumber: SALE.ticketNumber,
  kind: SALE.kind,
  status: SALE.status,
  businessDate: SALE.businessDate,
  soldAt: SALE.soldAt,
  employeeCode: SALE.employeeCode,
  customerCode: SALE.customerCode,
  currency: SALE.currency,
  paymentMethods: 'CARD',
  ...SALE.lines[0],
};

const TOTALS: ReportTotals = {
  sales: 1,
  lines: 1,
  voidedSales: 0,
  voidedLines: 0,
  byCurrency: [
    {
      currency: SALE.currency,
      net: SALE.totalNet,
      tax: SALE.totalTax,
      discount: SALE.totalDiscount,
      gross: SALE.totalGross,
    },
  ],
};

/** The JSON representation of a one-line report. */
export const REPORT_EXAMPLE = {
  from: '2026-03-01T00:00:00.000',
  to: '2026-03-02T00:00:00.000',
  rows: [ROW],
  totals: TOTALS,
};

/** The same report as CSV: a header row, then one row per line, CRLF. */
export const REPORT_CSV_EXAMPLE = [REPORT_COLUMNS, REPORT_COLUMNS.map((c) => ROW[c] ?? '')]
  .map((fields) => `${fields.join(',')}\r\n`)
  .join('');
