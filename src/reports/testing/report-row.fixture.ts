import type { ReportSale } from '../report-row.mapper';
import type { TransactionDetailRowDto } from '../dto/transaction-detail-row.dto';

/** A report row for unit specs, with any field overridden. */
export function reportRow(
  overrides: Partial<TransactionDetailRowDto> = {},
): TransactionDetailRowDto {
  return {
    shopCode: 'SHOP1',
    registerCode: 'R1',
    saleId: '1',
    ticketNumber: 'R1-000001',
    kind: 'SALE',
    status: 'COMPLETED',
    businessDate: '2026-03-02',
    soldAt: '2026-03-02T10:00:00.000',
    employeeCode: 'E1',
    customerCode: null,
    currency: 'EUR',
    paymentMethods: 'CASH',
    lineNo: 1,
    itemCode: 'ITEM1',
    description: 'Bread',
    quantity: '1.0000',
    unitPrice: '1.2100',
    discount: '0.00',
    taxRate: '21.00',
    net: '1.00',
    tax: '0.21',
    gross: '1.21',
    ...overrides,
  };
}

/** What the report reads of a sale, with `lineCount` lines of 1.21 gross each, for unit specs. */
export function saleWithLines(id: string, lineCount: number, status = 'COMPLETED'): ReportSale {
  return {
    id,
    shop_code: 'SHOP1',
    register_code: 'R1',
    ticket_number: `R1-${id.padStart(6, '0')}`,
    kind: 'SALE',
    status,
    business_date: '2026-03-02',
    sold_at: '2026-03-02 10:00:00.000',
    currency: 'EUR',
    employee_code: 'E1',
    customer_code: null,
    lines: Array.from({ length: lineCount }, (_, i) => ({
      sale_id: id,
      line_no: i + 1,
      item_code: `ITEM${i + 1}`,
      description: 'Bread',
      // better-sqlite3 returns NUMERIC columns as numbers: the mapping formats both.
      quantity: 1,
      unit_price: '1.2100',
      discount: '0.00',
      tax_rate: 21,
      net: '1.00',
      tax: '0.21',
      gross: '1.21',
    })),
  };
}
