/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs. Do not edit: run
 * `npm run generate -w @pos-read-api/client`.
 */

/** A field of a record and the mirror's column for it (packages/client/src/mirror/schema.ts). */
export interface GeneratedColumn {
  readonly field: string;
  readonly column: string;
  readonly type: 'id' | 'int' | 'text';
  readonly nullable: boolean;
}

/**
 * Each cursor resource's record as columns, in the document's order, and its nested lists; its
 * day field is the record's field that dates it.
 */
export const MIRROR_COLUMNS = {
  /** /api/v1.0/sales: the schema Sale. */
  'sales': {
    dayField: 'soldAt',
    columns: [
      { field: 'id', column: 'id', type: 'id', nullable: false },
      { field: 'shopCode', column: 'shop_code', type: 'text', nullable: false },
      { field: 'registerCode', column: 'register_code', type: 'text', nullable: false },
      { field: 'ticketNumber', column: 'ticket_number', type: 'text', nullable: false },
      { field: 'kind', column: 'kind', type: 'text', nullable: false },
      { field: 'status', column: 'status', type: 'text', nullable: false },
      { field: 'businessDate', column: 'business_date', type: 'text', nullable: false },
      { field: 'soldAt', column: 'sold_at', type: 'text', nullable: false },
      { field: 'soldAtUtc', column: 'sold_at_utc', type: 'text', nullable: true },
      { field: 'currency', column: 'currency', type: 'text', nullable: false },
      { field: 'totalNet', column: 'total_net', type: 'text', nullable: false },
      { field: 'totalTax', column: 'total_tax', type: 'text', nullable: false },
      { field: 'totalDiscount', column: 'total_discount', type: 'text', nullable: false },
      { field: 'totalGross', column: 'total_gross', type: 'text', nullable: false },
      { field: 'employeeCode', column: 'employee_code', type: 'text', nullable: true },
      { field: 'customerCode', column: 'customer_code', type: 'text', nullable: true },
      { field: 'originalSaleId', column: 'original_sale_id', type: 'id', nullable: true },
    ],
    nested: {
      lines: [
        { field: 'lineNo', column: 'line_no', type: 'int', nullable: false },
        { field: 'itemCode', column: 'item_code', type: 'text', nullable: false },
        { field: 'description', column: 'description', type: 'text', nullable: false },
        { field: 'quantity', column: 'quantity', type: 'text', nullable: false },
        { field: 'unitPrice', column: 'unit_price', type: 'text', nullable: false },
        { field: 'discount', column: 'discount', type: 'text', nullable: false },
        { field: 'taxRate', column: 'tax_rate', type: 'text', nullable: false },
        { field: 'net', column: 'net', type: 'text', nullable: false },
        { field: 'tax', column: 'tax', type: 'text', nullable: false },
        { field: 'gross', column: 'gross', type: 'text', nullable: false },
      ],
    },
  },
  /** /api/v1.0/payments: the schema Payment. */
  'payments': {
    dayField: 'paidAt',
    columns: [
      { field: 'id', column: 'id', type: 'id', nullable: false },
      { field: 'saleId', column: 'sale_id', type: 'id', nullable: false },
      { field: 'shopCode', column: 'shop_code', type: 'text', nullable: false },
      { field: 'registerCode', column: 'register_code', type: 'text', nullable: false },
      { field: 'paidAt', column: 'paid_at', type: 'text', nullable: false },
      { field: 'paidAtUtc', column: 'paid_at_utc', type: 'text', nullable: true },
      { field: 'businessDate', column: 'business_date', type: 'text', nullable: false },
      { field: 'method', column: 'method', type: 'text', nullable: false },
      { field: 'amount', column: 'amount', type: 'text', nullable: false },
      { field: 'currency', column: 'currency', type: 'text', nullable: false },
      { field: 'cardBrand', column: 'card_brand', type: 'text', nullable: true },
      { field: 'reference', column: 'reference', type: 'text', nullable: true },
    ],
    nested: {},
  },
  /** /api/v1.0/cash-movements: the schema CashMovement. */
  'cash-movements': {
    dayField: 'movedAt',
    columns: [
      { field: 'id', column: 'id', type: 'id', nullable: false },
      { field: 'shopCode', column: 'shop_code', type: 'text', nullable: false },
      { field: 'registerCode', column: 'register_code', type: 'text', nullable: false },
      { field: 'movedAt', column: 'moved_at', type: 'text', nullable: false },
      { field: 'movedAtUtc', column: 'moved_at_utc', type: 'text', nullable: true },
      { field: 'businessDate', column: 'business_date', type: 'text', nullable: false },
      { field: 'kind', column: 'kind', type: 'text', nullable: false },
      { field: 'amount', column: 'amount', type: 'text', nullable: false },
      { field: 'currency', column: 'currency', type: 'text', nullable: false },
      { field: 'reason', column: 'reason', type: 'text', nullable: true },
      { field: 'employeeCode', column: 'employee_code', type: 'text', nullable: true },
      { field: 'saleId', column: 'sale_id', type: 'id', nullable: true },
    ],
    nested: {},
  },
  /** /api/v1.0/cash-drawer-sessions: the schema CashDrawerSession. */
  'cash-drawer-sessions': {
    dayField: 'openedAt',
    columns: [
      { field: 'id', column: 'id', type: 'id', nullable: false },
      { field: 'shopCode', column: 'shop_code', type: 'text', nullable: false },
      { field: 'registerCode', column: 'register_code', type: 'text', nullable: false },
      { field: 'businessDate', column: 'business_date', type: 'text', nullable: false },
      { field: 'openedAt', column: 'opened_at', type: 'text', nullable: false },
      { field: 'openedAtUtc', column: 'opened_at_utc', type: 'text', nullable: true },
      { field: 'closedAt', column: 'closed_at', type: 'text', nullable: true },
      { field: 'closedAtUtc', column: 'closed_at_utc', type: 'text', nullable: true },
      { field: 'status', column: 'status', type: 'text', nullable: false },
      { field: 'currency', column: 'currency', type: 'text', nullable: false },
      { field: 'openingFloat', column: 'opening_float', type: 'text', nullable: false },
      { field: 'cashSales', column: 'cash_sales', type: 'text', nullable: false },
      { field: 'cashRefunds', column: 'cash_refunds', type: 'text', nullable: false },
      { field: 'cashIn', column: 'cash_in', type: 'text', nullable: false },
      { field: 'cashOut', column: 'cash_out', type: 'text', nullable: false },
      { field: 'expected', column: 'expected', type: 'text', nullable: false },
      { field: 'counted', column: 'counted', type: 'text', nullable: true },
      { field: 'discrepancy', column: 'discrepancy', type: 'text', nullable: true },
      { field: 'movementCount', column: 'movement_count', type: 'int', nullable: false },
    ],
    nested: {},
  },
} as const satisfies Record<
  string,
  {
    dayField: string;
    columns: readonly GeneratedColumn[];
    nested: Record<string, readonly GeneratedColumn[]>;
  }
>;
