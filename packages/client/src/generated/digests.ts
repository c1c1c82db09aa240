/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs. Do not edit: run
 * `npm run generate -w @pos-read-api/client`.
 */

/** The newest digest version the service answers (a new mirror verifies with it). */
export const NEWEST_DIGEST_VERSION = 2;

/** Each digested resource's fields per digest version: what a day's checksum covers. */
export const DIGEST_FIELDS = {
  /** /api/v1.0/sales/digest. */
  'sales': {
    1: ['id', 'shopCode', 'registerCode', 'ticketNumber', 'kind', 'status', 'businessDate', 'soldAt', 'currency', 'totalNet', 'totalTax', 'totalDiscount', 'totalGross', 'employeeCode', 'customerCode', 'originalSaleId', 'lines'],
    2: ['id', 'shopCode', 'registerCode', 'ticketNumber', 'kind', 'status', 'businessDate', 'soldAt', 'soldAtUtc', 'currency', 'totalNet', 'totalTax', 'totalDiscount', 'totalGross', 'employeeCode', 'customerCode', 'originalSaleId', 'lines'],
  },
  /** /api/v1.0/payments/digest. */
  'payments': {
    1: ['id', 'saleId', 'shopCode', 'registerCode', 'paidAt', 'method', 'amount', 'currency', 'cardBrand', 'reference'],
    2: ['id', 'saleId', 'shopCode', 'registerCode', 'paidAt', 'paidAtUtc', 'businessDate', 'method', 'amount', 'currency', 'cardBrand', 'reference'],
  },
  /** /api/v1.0/cash-movements/digest. */
  'cash-movements': {
    1: ['id', 'shopCode', 'registerCode', 'movedAt', 'kind', 'amount', 'currency', 'reason', 'employeeCode', 'saleId'],
    2: ['id', 'shopCode', 'registerCode', 'movedAt', 'movedAtUtc', 'businessDate', 'kind', 'amount', 'currency', 'reason', 'employeeCode', 'saleId'],
  },
} as const satisfies Record<string, Record<number, readonly string[]>>;
