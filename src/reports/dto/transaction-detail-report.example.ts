import { EXAMPLE_SALE_LINE } from '../../common/openapi/example-sale-line';
import { REPORT_COLUMNS } from '../transaction-detail.row';
import type { TransactionDetailReportDto } from './transaction-detail-report.dto';
import type { TransactionDetailRowDto } from './transaction-detail-row.dto';

const ROW: TransactionDetailRowDto = {
  shopCode: 'SHOP001',
  registerCode: 'R1',
  saleId: '1048576',
  ticketNumber: 'R1-000123',
  kind: 'SALE',
  status: 'COMPLETED',
  businessDate: '2026-03-01',
  soldAt: '2026-03-01T10:15:30.250',
  employeeCode: 'E007',
  customerCode: null,
  currency: 'EUR',
  paymentMethods: 'CARD',
  ...EXAMPLE_SALE_LINE,
};

/** The JSON representation of a one-line report (the sale of the sales example). */
export const REPORT_EXAMPLE: TransactionDetailReportDto = {
  from: '2026-03-01T00:00:00.000',
  to: '2026-03-02T00:00:00.000',
  rows: [ROW],
  totals: {
    sales: 1,
    lines: 1,
    voidedSales: 0,
    voidedLines: 0,
    byCurrency: [{ currency: 'EUR', net: '10.33', tax: '2.17', discount: '0.00', gross: '12.50' }],
  },
};

/** The same report as CSV: a header row, then one row per line, CRLF. */
export const REPORT_CSV_EXAMPLE = [REPORT_COLUMNS, REPORT_COLUMNS.map((c) => ROW[c] ?? '')]
  .map((fields) => `${fields.join(',')}\r\n`)
  .join('');
