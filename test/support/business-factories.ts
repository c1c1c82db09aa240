import type { DataSource } from 'typeorm';
import type { Column, Columns, Source } from '../../src/catalogue/source';
import { CASH_MOVEMENTS } from '../../src/cash-movements/cash-movements.source';
import { CATALOGUE } from '../../src/app.catalogue';
import { PAYMENTS } from '../../src/payments/payments.source';
import { SALES } from '../../src/sales/sales.source';

/** A value a factory writes: ids as bigint or decimal strings, money as decimal strings. */
type Value = string | number | bigint | null;

/**
 * Inserts one row into a source's table (any resource of the catalogue): each column that a
 * source of the catalogue over that table declares (a drawer session's source declares some of
 * pos_cash_movements', the cash movements' all), and its arrival column when given, the value
 * `values` gives, else the value the source's `only` selects its rows by (a drawer session's
 * kind), else a default by the column's SQL type: NULL for a nullable column, 1 for a BIGINT or
 * an INT, zero at the DECIMAL's scale, the date of the source's time for a DATE, 2026-01-01 for a
 * DATETIME, the column's name (upper case, cut to the length) for text. Never a derived column:
 * the database computes those at each read.
 */
export async function insertSourceRow(
  db: DataSource,
  source: Source<unknown>,
  values: Readonly<Record<string, Value>>,
): Promise<void> {
  const declared: Columns = Object.assign(
    {},
    ...CATALOGUE.filter((r) => r.source.table === source.table).map((r) => r.source.columns),
    source.columns,
  );
  const columns = Object.keys(declared);
  if (source.arrivedAt && values[source.arrivedAt] !== undefined) columns.push(source.arrivedAt);
  const unknown = Object.keys(values).filter((name) => !columns.includes(name));
  if (unknown.length > 0) throw new Error(`${source.table} has no column ${unknown.join(', ')}`);
  const time = values[source.time];
  const row = columns.map((name) =>
    name in values ? values[name] : (source.only?.[name] ?? defaultOf(name, declared[name], time)),
  );
  await db.query(
    `INSERT INTO ${source.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    row,
  );
}

/**
 * One row of `source` with id `id` in shop `shopCode` at `at` (its time column): its references
 * (`…_id`) the sale of the same id, its register R1 (which a shop of the factories has), the
 * rest insertSourceRow's defaults, or `values`.
 */
export async function insertRowAt(
  db: DataSource,
  source: Source<unknown>,
  row: { id: bigint; shopCode: string; at: string },
  values: Readonly<Record<string, Value>> = {},
): Promise<void> {
  const columns = Object.keys(source.columns);
  const references = columns.filter((c) => c.endsWith('_id')).map((c) => [c, row.id]);
  const register = columns.includes('register_code') ? { register_code: 'R1' } : {};
  await insertSourceRow(db, source, {
    ...Object.fromEntries(references),
    ...register,
    id: row.id,
    shop_code: row.shopCode,
    [source.time]: row.at,
    ...values,
  });
}

function defaultOf(name: string, column: Column<unknown>, time: Value | undefined): Value {
  const type = column.sqlType ?? '';
  if (column.kind.startsWith('nullable')) return null;
  if (/^(BIGINT|TINYINT|SMALLINT|INT)\b/.test(type)) return 1;
  const scale = /^DECIMAL\(\d+,(\d+)\)/.exec(type);
  if (scale) return (0).toFixed(Number(scale[1]));
  if (type === 'DATE') return typeof time === 'string' ? time.slice(0, 10) : '2026-01-01';
  if (type.startsWith('DATETIME')) return '2026-01-01 00:00:00.000';
  const length = Number(/\((\d+)\)/.exec(type)?.[1] ?? 255);
  return name.toUpperCase().slice(0, length);
}

/** Inserts business rows exactly as given (money as decimal strings), for end-to-end assertions. */
export interface SaleSpec {
  id: bigint;
  shopCode: string;
  registerCode?: string;
  soldAt: string; // 'YYYY-MM-DD HH:MM:SS.mmm'
  /** 'YYYY-MM-DD'; the date of soldAt by default. */
  businessDate?: string;
  kind?: 'SALE' | 'RETURN';
  status?: 'COMPLETED' | 'VOIDED';
  totalNet?: string;
  totalTax?: string;
  totalDiscount?: string;
  totalGross?: string;
  originalSaleId?: bigint | null;
  ticketNumber?: string;
  currency?: string;
  employeeCode?: string | null;
  customerCode?: string | null;
  lines?: LineSpec[];
}

interface LineSpec {
  itemCode?: string;
  description?: string;
  quantity: string;
  unitPrice: string;
  discount?: string;
  taxRate?: string;
  net: string;
  tax: string;
  gross: string;
}

export async function insertSale(db: DataSource, s: SaleSpec): Promise<void> {
  await insertSourceRow(db, SALES, {
    id: s.id,
    shop_code: s.shopCode,
    register_code: s.registerCode ?? 'R1',
    ticket_number: s.ticketNumber ?? `T-${s.id}`,
    kind: s.kind ?? 'SALE',
    status: s.status ?? 'COMPLETED',
    sold_at: s.soldAt,
    currency: s.currency ?? 'EUR',
    total_net: s.totalNet ?? '10.00',
    total_tax: s.totalTax ?? '2.10',
    total_discount: s.totalDiscount ?? '0.00',
    total_gross: s.totalGross ?? '12.10',
    employee_code: s.employeeCode === undefined ? 'E001' : s.employeeCode,
    customer_code: s.customerCode ?? null,
    original_sale_id: s.originalSaleId ?? null,
    business_date: s.businessDate ?? s.soldAt.slice(0, 10),
  });
  // Last line first: the service must order lines itself, not rely on insertion order.
  const lines = s.lines ?? [];
  for (let lineNo = lines.length; lineNo >= 1; lineNo--) {
    const l = lines[lineNo - 1];
    await db.query(
      `INSERT INTO pos_sale_lines (sale_id, line_no, item_code, description, quantity, unit_price, discount,
         tax_rate, net, tax, gross) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        s.id,
        lineNo,
        l.itemCode ?? `ITEM${lineNo}`,
        l.description ?? `Item ${lineNo}`,
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
}

export async function insertPayment(
  db: DataSource,
  p: {
    id: bigint;
    saleId: bigint;
    shopCode: string;
    paidAt: string;
    amount: string;
    method?: string;
    currency?: string;
  },
): Promise<void> {
  await insertSourceRow(db, PAYMENTS, {
    id: p.id,
    sale_id: p.saleId,
    shop_code: p.shopCode,
    register_code: 'R1',
    paid_at: p.paidAt,
    method: p.method ?? 'CASH',
    amount: p.amount,
    currency: p.currency ?? 'EUR',
  });
}

/** A cash movement of `shop` by position: `move(id, register, movedAt, kind, amount[, shop])`. */
export const cashMoverOf =
  (db: DataSource, shop: string) =>
  (
    id: number,
    registerCode: string,
    movedAt: string,
    kind: string,
    amount: string,
    shopCode = shop,
  ) =>
    insertCashMovement(db, { id: BigInt(id), shopCode, registerCode, movedAt, kind, amount });

export async function insertCashMovement(
  db: DataSource,
  m: {
    id: bigint;
    shopCode: string;
    movedAt: string;
    amount: string;
    kind?: string;
    saleId?: bigint | null;
    registerCode?: string;
  },
): Promise<void> {
  await insertSourceRow(db, CASH_MOVEMENTS, {
    id: m.id,
    shop_code: m.shopCode,
    register_code: m.registerCode ?? 'R1',
    moved_at: m.movedAt,
    kind: m.kind ?? 'CASH_IN',
    amount: m.amount,
    currency: 'EUR',
    employee_code: 'E001',
    sale_id: m.saleId ?? null,
  });
}

/** Walks every page of a cursor endpoint; returns the pages. */
export async function walkPages<T>(
  fetchPage: (
    cursor: string | null,
  ) => Promise<{ status: number; body: { data: T[]; nextCursor: string | null } }>,
  maxPages = 10_000,
): Promise<Array<{ data: T[]; nextCursor: string | null }>> {
  const pages: Array<{ data: T[]; nextCursor: string | null }> = [];
  let cursor: string | null = null;
  for (let i = 0; i < maxPages; i++) {
    const res = await fetchPage(cursor);
    if (res.status !== 200) throw new Error(`page ${i} answered ${res.status}`);
    pages.push(res.body);
    cursor = res.body.nextCursor;
    if (cursor === null) return pages;
  }
  throw new Error('too many pages');
}
