import { decimal, localDateTime, nullableString } from '../common/sql-values';
import { instantOf } from '../common/zoned-time';
import { defineResource } from '../catalogue/resource';
import { SALE_EXAMPLE, SaleDto } from './sale.dto';
import { SALES, type SaleRow, saleLineValues } from './sales.source';

/** A sale as GET /sales returns it: money at the column's scale, date-times without zone. */
export function toSaleRecord(sale: SaleRow): SaleDto {
  return {
    id: sale.id,
    shopCode: sale.shop_code,
    registerCode: sale.register_code,
    ticketNumber: sale.ticket_number,
    kind: sale.kind,
    status: sale.status,
    businessDate: sale.business_date,
    soldAt: localDateTime(sale.sold_at),
    soldAtUtc: instantOf(sale.sold_at, sale.time_zone),
    currency: sale.currency,
    totalNet: decimal(sale.total_net, 2),
    totalTax: decimal(sale.total_tax, 2),
    totalDiscount: decimal(sale.total_discount, 2),
    totalGross: decimal(sale.total_gross, 2),
    employeeCode: nullableString(sale.employee_code),
    customerCode: nullableString(sale.customer_code),
    originalSaleId: nullableString(sale.original_sale_id),
    lines: sale.lines.map(saleLineValues),
  };
}

/** sales: the declaration the catalogue (src/app.catalogue.ts) lists. */
export const SALES_RESOURCE = defineResource({
  route: 'sales',
  tag: { name: 'Sales', description: 'Sales with their lines, by cursor.' },
  source: SALES,
  record: SaleDto,
  example: SALE_EXAMPLE,
  toRecord: toSaleRecord,
  datedBy: 'soldAt',
  list: {
    summary: 'List sales with their lines',
    description:
      'Sales and returns of the shops in the token claims, each with its lines, by `soldAt`.',
  },
  feed: {
    summary: 'Sales with their lines in the order they reached the back office',
    description:
      'Sales and returns of the shops in the token claims, each with its lines, in arrival order: a sale rung up offline and uploaded days later comes after the sales that arrived before it, whatever its `soldAt`. From selects the sales that arrived since then (`created_at`).',
  },
  // The fields that joined the digests after version 1 (docs/sync.md, "Digest versions").
  digest: { since: { soldAtUtc: 2 } },
});
