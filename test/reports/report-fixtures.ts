import type { DataSource } from 'typeorm';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { insertPayment, insertSale } from '../support/business-factories';
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
  const saleId = BigInt(s.id);
  await insertSale(db, {
    ...s,
    id: saleId,
    ticketNumber: `R1-${String(s.id).padStart(6, '0')}`,
    totalNet: '0.00',
    totalTax: '0.00',
    totalDiscount: '0.00',
    totalGross: '0.00',
  });
  for (const p of s.payments ?? []) {
    await insertPayment(db, {
      id: BigInt(p.id),
      saleId,
      shopCode: s.shopCode,
      paidAt: s.soldAt,
      method: p.method,
      amount: p.amount,
      currency: s.currency,
    });
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

/**
 * One shop of 900 sales a day from 2026-05-01 for `days` days: about 3,600 report rows a day,
 * 1.4 MB of JSON. A few days are more than the socket buffers hold, so a report a client does
 * not read stays in flight, held by backpressure.
 */
export function seedStreamingReport(db: DataSource, seed: number, days: number) {
  return seedBusinessData(db, { seed, shops: 1, days, salesPerDay: 900, startDate: '2026-05-01' });
}
