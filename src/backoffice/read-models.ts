import type { KeysetPosition } from '../common/pagination/keyset-resource';

/**
 * The read models ShopScopedReader returns: the back-office rows as the drivers give them (the
 * column names of the tables, ids as decimal strings, date-times in the stored form
 * 'YYYY-MM-DD HH:MM:SS.mmm'), typed. Each feature maps them to its own response shape.
 */

/** A DECIMAL as the drivers return it: mysql2 a string with the column's scale, better-sqlite3 a number. */
type SqlDecimal = string | number;

/** A row of pos_sales. */
export interface SaleRow {
  id: string;
  shop_code: string;
  register_code: string;
  ticket_number: string;
  /** SALE | RETURN */
  kind: string;
  /** COMPLETED | VOIDED */
  status: string;
  /** 'YYYY-MM-DD' */
  business_date: string;
  /** Shop-local, stored form. */
  sold_at: string;
  currency: string;
  total_net: SqlDecimal;
  total_tax: SqlDecimal;
  total_discount: SqlDecimal;
  total_gross: SqlDecimal;
  employee_code: string | null;
  customer_code: string | null;
  original_sale_id: string | null;
}

/** A row of pos_sale_lines. */
export interface SaleLineRow {
  sale_id: string;
  line_no: number;
  item_code: string;
  description: string;
  quantity: SqlDecimal;
  unit_price: SqlDecimal;
  discount: SqlDecimal;
  tax_rate: SqlDecimal;
  net: SqlDecimal;
  tax: SqlDecimal;
  gross: SqlDecimal;
}

/** A sale with its lines, in line order. */
export interface SaleWithLines extends SaleRow {
  lines: SaleLineRow[];
}

/** A row of pos_payments. */
export interface PaymentRow {
  id: string;
  sale_id: string;
  shop_code: string;
  register_code: string;
  /** Shop-local, stored form. */
  paid_at: string;
  method: string;
  amount: SqlDecimal;
  currency: string;
  card_brand: string | null;
  reference: string | null;
}

/** A row of pos_cash_movements. */
export interface CashMovementRow {
  id: string;
  shop_code: string;
  register_code: string;
  /** Shop-local, stored form. */
  moved_at: string;
  kind: string;
  amount: SqlDecimal;
  currency: string;
  reason: string | null;
  employee_code: string | null;
  sale_id: string | null;
}

/** A row of bo_shops. */
export interface ShopRow {
  code: string;
  name: string;
  time_zone: string;
  currency: string;
}

/** One chunk of the transaction detail report: sales with their lines and payment methods. */
export interface ReportChunk {
  sales: SaleWithLines[];
  /** Sale id → the distinct methods of its payments; absent when the sale has no payment. */
  paymentMethods: Map<string, string[]>;
  /** Where the next chunk starts; null when this was the last one. */
  next: KeysetPosition | null;
}
