import type { CanonicalRecord } from '../common/pagination/day-checksums';
import { decimal, localDateTime, nullableString } from '../common/sql-values';
import type { SaleDto } from './dto/sale.dto';
import { canonicalSaleLine, type SaleRow, saleLineValues } from './sales.source';

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

/**
 * The same sale as the digest's checksum reads it (CanonicalRecord): toSaleRecord's fields and
 * values, its keys in JCS order, written straight from the row.
 */
export function toCanonicalSale(sale: SaleRow): CanonicalRecord {
  return {
    businessDate: sale.business_date,
    currency: sale.currency,
    customerCode: nullableString(sale.customer_code),
    employeeCode: nullableString(sale.employee_code),
    id: sale.id,
    kind: sale.kind,
    lines: sale.lines.map(canonicalSaleLine),
    originalSaleId: nullableString(sale.original_sale_id),
    registerCode: sale.register_code,
    shopCode: sale.shop_code,
    soldAt: localDateTime(sale.sold_at),
    status: sale.status,
    ticketNumber: sale.ticket_number,
    totalDiscount: decimal(sale.total_discount, 2),
    totalGross: decimal(sale.total_gross, 2),
    totalNet: decimal(sale.total_net, 2),
    totalTax: decimal(sale.total_tax, 2),
  };
}
