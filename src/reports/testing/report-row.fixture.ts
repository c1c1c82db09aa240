import type { SaleDto } from '../../sales/dto/sale.dto';
import type { TransactionDetailRowDto } from '../dto/transaction-detail-row.dto';

/** The line the fixtures sell: one bread, 1.21 gross. */
const BREAD = {
  description: 'Bread',
  quantity: '1.0000',
  unitPrice: '1.2100',
  discount: '0.00',
  taxRate: '21.00',
  net: '1.00',
  tax: '0.21',
  gross: '1.21',
};

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
    ...BREAD,
    ...overrides,
  };
}

/** A sale with `lineCount` lines of 1.21 gross each, for unit specs. */
export function saleRecord(id: string, lineCount: number, status = 'COMPLETED'): SaleDto {
  return {
    id,
    shopCode: 'SHOP1',
    registerCode: 'R1',
    ticketNumber: `R1-${id.padStart(6, '0')}`,
    kind: 'SALE',
    status,
    businessDate: '2026-03-02',
    soldAt: '2026-03-02T10:00:00.000',
    currency: 'EUR',
    totalNet: '0.00',
    totalTax: '0.00',
    totalDiscount: '0.00',
    totalGross: '0.00',
    employeeCode: 'E1',
    customerCode: null,
    originalSaleId: null,
    lines: Array.from({ length: lineCount }, (_, i) => ({
      lineNo: i + 1,
      itemCode: `ITEM${i + 1}`,
      ...BREAD,
    })),
  };
}
