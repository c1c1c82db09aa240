/**
 * The server's digest versions (docs/sync.md, "Digest versions"): the fields of each record a
 * day's checksum covers, per version, frozen. A mirror verifies with the version it was built on
 * (`mirror_state.digest_version`; none recorded: 1, a mirror built before versions existed),
 * sends it as `Version` on every digest request, and hashes its own records with only that
 * version's fields. Moving to the newest is deliberate (`newestDigests`): the days whose stored
 * records lack the new fields then differ once and are re-read.
 */
export const NEWEST_DIGEST_VERSION = 2;

const SALE_V1 = [
  'id',
  'shopCode',
  'registerCode',
  'ticketNumber',
  'kind',
  'status',
  'businessDate',
  'soldAt',
  'currency',
  'totalNet',
  'totalTax',
  'totalDiscount',
  'totalGross',
  'employeeCode',
  'customerCode',
  'originalSaleId',
  'lines',
];
const PAYMENT_V1 = [
  'id',
  'saleId',
  'shopCode',
  'registerCode',
  'paidAt',
  'method',
  'amount',
  'currency',
  'cardBrand',
  'reference',
];
const MOVEMENT_V1 = [
  'id',
  'shopCode',
  'registerCode',
  'movedAt',
  'kind',
  'amount',
  'currency',
  'reason',
  'employeeCode',
  'saleId',
];

/** Each resource's fields per digest version. */
export const DIGEST_FIELDS: Record<string, Record<number, readonly string[]>> = {
  sales: { 1: SALE_V1, 2: [...SALE_V1, 'soldAtUtc'] },
  payments: { 1: PAYMENT_V1, 2: [...PAYMENT_V1, 'paidAtUtc', 'businessDate'] },
  'cash-movements': { 1: MOVEMENT_V1, 2: [...MOVEMENT_V1, 'movedAtUtc', 'businessDate'] },
};

/** A record with only `fields` (those it has): what a digest version's checksum covers. */
export function digestRecord<T extends Record<string, unknown>>(
  record: T,
  fields: readonly string[],
): T {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field in record) out[field] = record[field];
  return out as T;
}
