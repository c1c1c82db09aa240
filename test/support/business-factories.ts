import type { DataSource } from 'typeorm';

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
  await db.query(
    `INSERT INTO pos_sales (id, shop_code, register_code, ticket_number, kind, status, business_date, sold_at,
       currency, total_net, total_tax, total_discount, total_gross, employee_code, customer_code, original_sale_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      s.id,
      s.shopCode,
      s.registerCode ?? 'R1',
      s.ticketNumber ?? `T-${s.id}`,
      s.kind ?? 'SALE',
      s.status ?? 'COMPLETED',
      s.businessDate ?? s.soldAt.slice(0, 10),
      s.soldAt,
      s.currency ?? 'EUR',
      s.totalNet ?? '10.00',
      s.totalTax ?? '2.10',
      s.totalDiscount ?? '0.00',
      s.totalGross ?? '12.10',
      s.employeeCode === undefined ? 'E001' : s.employeeCode,
      s.customerCode ?? null,
      s.originalSaleId ?? null,
    ],
  );
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
  await db.query(
    `INSERT INTO pos_payments (id, sale_id, shop_code, register_code, paid_at, method, amount, currency, card_brand, reference)
     VALUES (?, ?, ?, 'R1', ?, ?, ?, ?, NULL, NULL)`,
    [p.id, p.saleId, p.shopCode, p.paidAt, p.method ?? 'CASH', p.amount, p.currency ?? 'EUR'],
  );
}

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
  await db.query(
    `INSERT INTO pos_cash_movements (id, shop_code, register_code, moved_at, kind, amount, currency, reason, employee_code, sale_id)
     VALUES (?, ?, ?, ?, ?, ?, 'EUR', NULL, 'E001', ?)`,
    [
      m.id,
      m.shopCode,
      m.registerCode ?? 'R1',
      m.movedAt,
      m.kind ?? 'CASH_IN',
      m.amount,
      m.saleId ?? null,
    ],
  );
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
