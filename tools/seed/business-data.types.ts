/**
 * Rows of the back-office tables as the seed writes them: keys are the column names, ids are
 * decimal strings (BIGINT may exceed 2^53), DECIMAL values are strings at the column's scale,
 * DATETIME(3) values are 'YYYY-MM-DD HH:MM:SS.mmm' and DATE values 'YYYY-MM-DD'.
 */

export type SqlValue = string | number | null;

/** An id given by a caller: 42, 42n or '42'. */
export type IdLike = bigint | number | string;

export interface SeedIds<T = IdLike> {
  sale: T;
  payment: T;
  cashMovement: T;
}

/**
 * A shop to fill. Missing attributes are generated from the seed and the code. The writer
 * (`seedBusinessData`) fills `existing`, `registers` and the attributes from the database.
 */
export interface ShopSpec {
  /** VARCHAR(16), e.g. 'SHOP001'. */
  code: string;
  name?: string;
  /** Europe/Madrid, Europe/Lisbon or Atlantic/Canary when generated. */
  timeZone?: string;
  currency?: string;
  /** The shop's register codes, already in pos_registers; absent: 2-4 are generated and written. */
  registers?: readonly string[];
  /** The shop is already in bo_shops: no bo_shops row is generated for it. */
  existing?: boolean;
}

export interface BusinessDataOptions {
  seed: number;
  /** How many shops ('SHOP001', 'SHOP002', …), or the shops themselves. */
  shops: number | readonly ShopSpec[];
  days: number;
  /** Average sales per shop and day; the actual count varies by shop, weekday and day. */
  salesPerDay: number;
  /** First business date, 'YYYY-MM-DD'. */
  startDate: string;
  /** First ids to assign; default 1 each. */
  firstIds?: Partial<SeedIds>;
  /** Next ticket number per register, keyed 'SHOP001/R1'; default 1. */
  nextTicketNumbers?: Readonly<Record<string, number>>;
}

export interface ShopRow {
  code: string;
  name: string;
  time_zone: string;
  currency: string;
  is_active: number;
}

export interface RegisterRow {
  shop_code: string;
  code: string;
  name: string | null;
}

export type SaleKind = 'SALE' | 'RETURN';
export type SaleStatus = 'COMPLETED' | 'VOIDED';

export interface SaleRow {
  id: string;
  shop_code: string;
  register_code: string;
  ticket_number: string;
  kind: SaleKind;
  status: SaleStatus;
  business_date: string;
  sold_at: string;
  currency: string;
  total_net: string;
  total_tax: string;
  total_discount: string;
  total_gross: string;
  employee_code: string | null;
  customer_code: string | null;
  original_sale_id: string | null;
  created_at: string;
}

export interface SaleLineRow {
  sale_id: string;
  line_no: number;
  item_code: string;
  description: string;
  quantity: string;
  unit_price: string;
  discount: string;
  tax_rate: string;
  net: string;
  tax: string;
  gross: string;
}

export type PaymentMethod = 'CASH' | 'CARD' | 'VOUCHER' | 'GIFT_CARD' | 'TRANSFER' | 'OTHER';

export interface PaymentRow {
  id: string;
  sale_id: string;
  shop_code: string;
  register_code: string;
  paid_at: string;
  method: PaymentMethod;
  amount: string;
  currency: string;
  card_brand: string | null;
  reference: string | null;
}

export type CashMovementKind =
  'OPENING_FLOAT' | 'SALE' | 'REFUND' | 'CASH_IN' | 'CASH_OUT' | 'CLOSING_COUNT';

export interface CashMovementRow {
  id: string;
  shop_code: string;
  register_code: string;
  moved_at: string;
  kind: CashMovementKind;
  amount: string;
  currency: string;
  reason: string | null;
  employee_code: string | null;
  sale_id: string | null;
}

/** One business date of every shop; the first batch also carries the new shops and registers. */
export interface BusinessDataBatch {
  businessDate: string;
  shops: ShopRow[];
  registers: RegisterRow[];
  sales: SaleRow[];
  lines: SaleLineRow[];
  payments: PaymentRow[];
  cashMovements: CashMovementRow[];
}
