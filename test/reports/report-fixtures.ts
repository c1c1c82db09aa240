import type { DataSource } from 'typeorm';
import { http, HttpResult } from '../support/http';
import { forgeToken } from '../support/tokens';

export const REPORT = '/api/v1.0/TransactionDetailReport';

/** A sale with full control over every column the report shows. */
export interface ReportSaleSpec {
  id: number;
  shopCode: string;
  soldAt: string;
  kind?: 'SALE' | 'RETURN';
  status?: 'COMPLETED' | 'VOIDED';
  currency?: string;
  employeeCode?: string | null;
  customerCode?: string | null;
  lines: Array<{
    itemCode?: string;
    description?: string;
    quantity: string;
    unitPrice: string;
    discount?: string;
    taxRate?: string;
    net: string;
    tax: string;
    gross: string;
  }>;
  payments?: Array<{ id: number; method: string; amount: string }>;
}

/** Inserts a sale, its lines and its payments straight into the back-office tables. */
export async function insertReportSale(db: DataSource, s: ReportSaleSpec): Promise<void> {
  await db.query(
    `INSERT INTO pos_sales (id, shop_code, register_code, ticket_number, kind, status, business_date,
       sold_at, currency, total_net, total_tax, total_discount, total_gross, employee_code, customer_code)
     VALUES (?, ?, 'R1', ?, ?, ?, ?, ?, ?, '0.00', '0.00', '0.00', '0.00', ?, ?)`,
    [
      s.id,
      s.shopCode,
      `R1-${String(s.id).padStart(6, '0')}`,
      s.kind ?? 'SALE',
      s.status ?? 'COMPLETED',
      s.soldAt.slice(0, 10),
      s.soldAt,
      s.currency ?? 'EUR',
      s.employeeCode === undefined ? 'E001' : s.employeeCode,
      s.customerCode ?? null,
    ],
  );
  for (const [index, l] of s.lines.entries()) {
    await db.query(
      `INSERT INTO pos_sale_lines (sale_id, line_no, item_code, description, quantity, unit_price,
         discount, tax_rate, net, tax, gross) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        s.id,
        index + 1,
        l.itemCode ?? `ITEM${index + 1}`,
        l.description ?? `Item ${index + 1}`,
        l.quantity,
        l.unitPrice,
        l.discount ?? '0.00',
        l.taxRate ?? '21.00',
        l.net,
        l.tax,
        l.gross,
      ],
    );
  }
  for (const p of s.payments ?? []) {
    await db.query(
      `INSERT INTO pos_payments (id, sale_id, shop_code, register_code, paid_at, method, amount, currency)
       VALUES (?, ?, ?, 'R1', ?, ?, ?, ?)`,
      [p.id, s.id, s.shopCode, s.soldAt, p.method, p.amount, s.currency ?? 'EUR'],
    );
  }
}

let subjects = 0;

/** A token of a user of its own (a fresh `sub`), so specs never share a rate-limit counter. */
export function reportToken(shops: string[], sub = `report-${process.pid}-${++subjects}`): string {
  return forgeToken({ claims: { sub, shop_code: shops, jti: `jti-${sub}` } });
}

/** GET the report with a query string built from `params`. */
export function getReport(
  baseUrl: string,
  token: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const query = new URLSearchParams(params).toString();
  return http(baseUrl, `${REPORT}?${query}`, {
    headers: { Authorization: `Bearer ${token}`, ...headers },
  });
}

/** A JSON row with every value as the CSV writes it (null → '', numbers → text). */
export function asCsvRecord(row: Record<string, string | number | null>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, value === null ? '' : String(value)]),
  );
}
