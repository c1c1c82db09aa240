import type { components } from './generated/openapi.js';

/** The records and envelopes of the API, generated from docs/openapi.json. */
type Schemas = components['schemas'];
export type Sale = Schemas['Sale'];
export type SaleLine = Schemas['SaleLine'];
export type Payment = Schemas['Payment'];
export type CashMovement = Schemas['CashMovement'];
export type CashDrawerSession = Schemas['CashDrawerSession'];
export type BusinessDay = Schemas['BusinessDay'];
export type BusinessDays = Schemas['BusinessDays'];
export type Shop = Schemas['Shop'];
export type TokenResponse = Schemas['TokenResponse'];
export type TransactionDetailReport = Schemas['TransactionDetailReport'];
export type TransactionDetailRow = Schemas['TransactionDetailRow'];
export type ProblemDetails = Schemas['ProblemDetails'];

/** One page of a cursor endpoint, with the cursor that fetched it (null: the first page). */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  cursor: string | null;
}

/**
 * Query of the three cursor endpoints. `from`/`to` are shop-local date-times without a zone
 * (`2026-03-01` or `2026-03-01T06:30:00`), From inclusive, To exclusive.
 */
export interface ListQuery {
  shopCode?: string;
  from?: string;
  to?: string;
  /**
   * Instead of from/to: the records whose `businessDate` is from this date (`YYYY-MM-DD`,
   * inclusive) to `businessDateTo` (exclusive), at most 92 days (docs/sync.md).
   */
  businessDateFrom?: string;
  businessDateTo?: string;
  /** Records per page, 1..500 (default 500). */
  limit?: number;
}
