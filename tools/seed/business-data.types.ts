/**
 * Rows of the back-office tables as the seed writes them: keys are the column names, ids are
 * decimal strings (BIGINT may exceed 2^53), DECIMAL values are strings at the column's scale,
 * DATETIME(3) values are 'YYYY-MM-DD HH:MM:SS.mmm' and DATE values 'YYYY-MM-DD'. The business
 * tables' rows are derived from the resources' sources (src/<resource>/<resource>.source.ts):
 * a column declared there is a column the generator must fill.
 */

import type { OwnRow, RowOf } from '../../src/catalogue/source';
import { CASH_MOVEMENTS } from '../../src/cash-movements/cash-movements.source';
import { PAYMENTS } from '../../src/payments/payments.source';
import { SALE_LINES, SALES } from '../../src/sales/sales.source';

export type SqlValue = string | number | null;

/** An id given by a caller: 42, 42n or '42'. */
export type IdLike = bigint | number | string;

/**
 * The rows of each business table the generator fills, by the key its batch names them with
 * (the camel-cased route of a resource with a feed, the `as` of a table attached to its rows:
 * tools/seed/seed-tables.ts reads them off the catalogue). A new resource's demo rows: one line.
 */
export interface SeedRows {
  sales: SaleRow;
  lines: SaleLineRow;
  payments: PaymentRow;
  cashMovements: CashMovementRow;
}

/** The tables of `SeedRows` whose rows have ids, by the same key. */
type WithIds = {
  [K in keyof SeedRows]: SeedRows[K] extends { id: string } ? K : never;
}[keyof SeedRows];

/** An id per table with ids (first ids given, next ids to give), by its key in `SeedRows`. */
export type SeedIds<T = IdLike> = Record<WithIds, T>;

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
  /**
   * Trading hours of a business day, in hours after its local midnight: 20 to 28 is a bar open
   * from 20:00 until 04:00 the next morning (its sales after midnight keep the business date).
   * Absent: 12 hours from 9:00 or 10:00, drawn from the seed.
   */
  hours?: { open: number; close: number };
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
export type PaymentMethod = 'CASH' | 'CARD' | 'VOUCHER' | 'GIFT_CARD' | 'TRANSFER' | 'OTHER';
export type CashMovementKind =
  'OPENING_FLOAT' | 'SALE' | 'REFUND' | 'CASH_IN' | 'CASH_OUT' | 'CLOSING_COUNT';

/**
 * A column's value as the seed writes it: a DECIMAL (which a read may return as a number) is
 * always the string at its scale; every other value is the read's own type.
 */
type Written<V> = [V] extends [string | number]
  ? [number] extends [V]
    ? [string] extends [V]
      ? string
      : number
    : V
  : V;

/** The keys of a row whose column is nullable. */
type NullableKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : never }[keyof T];

/**
 * The row the seed inserts into a resource's table: the columns its source declares, a nullable
 * one optional (NULL when left out), so a nullable column added to a source needs no seed edit.
 */
export type InsertRow<S> = {
  [K in Exclude<keyof OwnRow<S>, NullableKeys<OwnRow<S>>>]: Written<OwnRow<S>[K]>;
} & { [K in NullableKeys<OwnRow<S>>]?: Written<OwnRow<S>[K]> };

/** pos_sales, with created_at: when the sale reached the back office (the feed's arrival). */
export type SaleRow = InsertRow<typeof SALES> & { created_at: string };
export type SaleLineRow = { [K in keyof LineRow]: Written<LineRow[K]> };
export type PaymentRow = InsertRow<typeof PAYMENTS>;
export type CashMovementRow = InsertRow<typeof CASH_MOVEMENTS>;
type LineRow = RowOf<typeof SALE_LINES.columns>;

/** One business date of every shop; the first batch also carries the new shops and registers. */
export type BusinessDataBatch = {
  businessDate: string;
  shops: ShopRow[];
  registers: RegisterRow[];
} & { [K in keyof SeedRows]: Array<SeedRows[K]> };
