import type { SaleLineDto } from '../sales/dto/sale-line.dto';
import type { SaleDto } from '../sales/dto/sale.dto';
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

/** The payment methods of a sale as the report writes them: distinct, sorted, joined by '+'. */
export function joinPaymentMethods(methods: Iterable<string>): string {
  return [...new Set(methods)].sort().join('+');
}

/** The rows of one sale, one per line, in line order. */
export function toReportRows(sale: SaleDto, paymentMethods: string): TransactionDetailRowDto[] {
  return sale.lines.map((line: SaleLineDto) => ({
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
