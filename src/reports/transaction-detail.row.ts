import type { TransactionDetailRowDto } from './dto/transaction-detail-row.dto';

/** Column order of the CSV, and key order of the JSON rows. */
export const REPORT_COLUMNS: ReadonlyArray<keyof TransactionDetailRowDto> = [
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
