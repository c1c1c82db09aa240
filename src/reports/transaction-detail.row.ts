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
