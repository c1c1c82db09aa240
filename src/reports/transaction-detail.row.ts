import type { SaleLineRecord, SaleRecord } from '../sales/sale.record';

/**
 * One row of TransactionDetailReport: a sale line with its sale's header fields and payment
 * methods. The same fields, in the same order, are the JSON keys and the CSV columns.
 */
export interface TransactionDetailRow {
  shopCode: string;
  registerCode: string;
  saleId: string;
  ticketNumber: string;
  /** SALE | RETURN */
  kind: string;
  /** COMPLETED | VOIDED */
  status: string;
  businessDate: string;
  /** Shop-local date-time, without zone. */
  soldAt: string;
  employeeCode: string | null;
  customerCode: string | null;
  currency: string;
  /** Distinct methods of the sale's payments, sorted, joined by '+': 'CARD+CASH'; '' when none. */
  paymentMethods: string;
  lineNo: number;
  itemCode: string;
  description: string;
  quantity: string;
  unitPrice: string;
  discount: string;
  taxRate: string;
  net: string;
  tax: string;
  gross: string;
}

/** Column order of the CSV, and key order of the JSON rows. */
export const REPORT_COLUMNS: ReadonlyArray<keyof TransactionDetailRow> = [
  'shopCode',
  'registerCode',
  'saleId',
  'ticketNumber',
  'kind',
  'status',
  'businessDate',
  'soldAt',
  'employeeCode',
  'customerCode',
  'currency',
  'paymentMethods',
  'lineNo',
  'itemCode',
  'description',
  'quantity',
  'unitPrice',
  'discount',
  'taxRate',
  'net',
  'tax',
  'gross',
];

/** The payment methods of a sale as the report writes them: distinct, sorted, joined by '+'. */
export function joinPaymentMethods(methods: Iterable<string>): string {
  return [...new Set(methods)].sort().join('+');
}

/** The rows of one sale, one per line, in line order. */
export function toReportRows(sale: SaleRecord, paymentMethods: string): TransactionDetailRow[] {
  return sale.lines.map((line: SaleLineRecord) => ({
    shopCode: sale.shopCode,
    registerCode: sale.registerCode,
    saleId: sale.id,
    ticketNumber: sale.ticketNumber,
    kind: sale.kind,
    status: sale.status,
    businessDate: sale.businessDate,
    soldAt: sale.soldAt,
    employeeCode: sale.employeeCode,
    customerCode: sale.customerCode,
    currency: sale.currency,
    paymentMethods,
    lineNo: line.lineNo,
    itemCode: line.itemCode,
    description: line.description,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    discount: line.discount,
    taxRate: line.taxRate,
    net: line.net,
    tax: line.tax,
    gross: line.gross,
  }));
}
