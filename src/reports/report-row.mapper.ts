import { type SaleRow, saleLineValues } from '../sales/sales.source';
import { localDateTime } from '../common/sql-values';
import type { TransactionDetailRowDto } from './dto/transaction-detail-row.dto';

/** The payment methods of a sale as the report writes them: distinct, sorted, joined by '+'. */
export function joinPaymentMethods(methods: Iterable<string>): string {
  return [...new Set(methods)].sort().join('+');
}

/**
 * What the report reads of a sale: the columns its rows show, and the lines. A field added to the
 * sales' source (for GET /sales) therefore changes neither this mapper nor its fixtures.
 */
export type ReportSale = Pick<
  SaleRow,
  | 'id'
  | 'shop_code'
  | 'register_code'
  | 'ticket_number'
  | 'kind'
  | 'status'
  | 'business_date'
  | 'sold_at'
  | 'employee_code'
  | 'customer_code'
  | 'currency'
  | 'lines'
>;

/**
 * The report's rows of one sale, one per line in line order, straight from the read model:
 * the sale's header fields (formatted once) and the line's own, with its payment methods.
 */
export function toReportRows(sale: ReportSale, paymentMethods: string): TransactionDetailRowDto[] {
  const soldAt = localDateTime(sale.sold_at);
  return sale.lines.map((line) => ({
    shopCode: sale.shop_code,
    registerCode: sale.register_code,
    saleId: sale.id,
    ticketNumber: sale.ticket_number,
    kind: sale.kind,
    status: sale.status,
    businessDate: sale.business_date,
    soldAt,
    employeeCode: sale.employee_code ?? null,
    customerCode: sale.customer_code ?? null,
    currency: sale.currency,
    paymentMethods,
    ...saleLineValues(line),
  }));
}
