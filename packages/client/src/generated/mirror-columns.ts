/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs. Do not edit: run
 * `npm run generate -w @pos-read-api/client`.
 */

/**
 * What a field's value is, as an export types it (packages/client/src/parquet/columns.ts): a
 * decimal's precision is null only in a record no export writes (a list without a feed).
 */
export type ValueKind =
  | { readonly kind: 'id' | 'int' | 'date' | 'local-time' | 'instant' | 'text' }
  | { readonly kind: 'decimal'; readonly precision: number | null; readonly scale: number };

/** A field of a record and the mirror's column for it (packages/client/src/mirror/schema.ts). */
export interface GeneratedColumn {
  readonly field: string;
  readonly column: string;
  readonly type: 'id' | 'int' | 'text';
  readonly nullable: boolean;
  readonly value: ValueKind;
}

/**
 * Each cursor resource's record as columns, in the document's order, and its nested lists; its
 * property in the client, the operations its path has, and its day field, the record's field
 * that dates it.
 */
export const MIRROR_COLUMNS = {
  /** /api/v1.0/sales: the schema Sale. */
  'sales': {
    property: 'sales',
    methods: ['list', 'feed', 'digest', 'bulk'],
    dayField: 'soldAt',
    columns: [
      { field: 'id', column: 'id', type: 'id', nullable: false, value: { kind: 'id' } },
      { field: 'shopCode', column: 'shop_code', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'registerCode', column: 'register_code', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'ticketNumber', column: 'ticket_number', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'kind', column: 'kind', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'status', column: 'status', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'businessDate', column: 'business_date', type: 'text', nullable: false, value: { kind: 'date' } },
      { field: 'soldAt', column: 'sold_at', type: 'text', nullable: false, value: { kind: 'local-time' } },
      { field: 'soldAtUtc', column: 'sold_at_utc', type: 'text', nullable: true, value: { kind: 'instant' } },
      { field: 'currency', column: 'currency', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'totalNet', column: 'total_net', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 2 } },
      { field: 'totalTax', column: 'total_tax', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 2 } },
      { field: 'totalDiscount', column: 'total_discount', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 2 } },
      { field: 'totalGross', column: 'total_gross', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 2 } },
      { field: 'employeeCode', column: 'employee_code', type: 'text', nullable: true, value: { kind: 'text' } },
      { field: 'customerCode', column: 'customer_code', type: 'text', nullable: true, value: { kind: 'text' } },
      { field: 'originalSaleId', column: 'original_sale_id', type: 'id', nullable: true, value: { kind: 'id' } },
    ],
    nested: {
      lines: [
        { field: 'lineNo', column: 'line_no', type: 'int', nullable: false, value: { kind: 'int' } },
        { field: 'itemCode', column: 'item_code', type: 'text', nullable: false, value: { kind: 'text' } },
        { field: 'description', column: 'description', type: 'text', nullable: false, value: { kind: 'text' } },
        { field: 'quantity', column: 'quantity', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 4 } },
        { field: 'unitPrice', column: 'unit_price', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 4 } },
        { field: 'discount', column: 'discount', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 2 } },
        { field: 'taxRate', column: 'tax_rate', type: 'text', nullable: false, value: { kind: 'decimal', precision: 5, scale: 2 } },
        { field: 'net', column: 'net', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 2 } },
        { field: 'tax', column: 'tax', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 2 } },
        { field: 'gross', column: 'gross', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 2 } },
      ],
    },
  },
  /** /api/v1.0/payments: the schema Payment. */
  'payments': {
    property: 'payments',
    methods: ['list', 'feed', 'digest', 'bulk'],
    dayField: 'paidAt',
    columns: [
      { field: 'id', column: 'id', type: 'id', nullable: false, value: { kind: 'id' } },
      { field: 'saleId', column: 'sale_id', type: 'id', nullable: false, value: { kind: 'id' } },
      { field: 'shopCode', column: 'shop_code', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'registerCode', column: 'register_code', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'paidAt', column: 'paid_at', type: 'text', nullable: false, value: { kind: 'local-time' } },
      { field: 'paidAtUtc', column: 'paid_at_utc', type: 'text', nullable: true, value: { kind: 'instant' } },
      { field: 'businessDate', column: 'business_date', type: 'text', nullable: false, value: { kind: 'date' } },
      { field: 'method', column: 'method', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'amount', column: 'amount', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 2 } },
      { field: 'currency', column: 'currency', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'cardBrand', column: 'card_brand', type: 'text', nullable: true, value: { kind: 'text' } },
      { field: 'reference', column: 'reference', type: 'text', nullable: true, value: { kind: 'text' } },
    ],
    nested: {},
  },
  /** /api/v1.0/cash-movements: the schema CashMovement. */
  'cash-movements': {
    property: 'cashMovements',
    methods: ['list', 'feed', 'digest', 'bulk'],
    dayField: 'movedAt',
    columns: [
      { field: 'id', column: 'id', type: 'id', nullable: false, value: { kind: 'id' } },
      { field: 'shopCode', column: 'shop_code', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'registerCode', column: 'register_code', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'movedAt', column: 'moved_at', type: 'text', nullable: false, value: { kind: 'local-time' } },
      { field: 'movedAtUtc', column: 'moved_at_utc', type: 'text', nullable: true, value: { kind: 'instant' } },
      { field: 'businessDate', column: 'business_date', type: 'text', nullable: false, value: { kind: 'date' } },
      { field: 'kind', column: 'kind', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'amount', column: 'amount', type: 'text', nullable: false, value: { kind: 'decimal', precision: 15, scale: 2 } },
      { field: 'currency', column: 'currency', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'reason', column: 'reason', type: 'text', nullable: true, value: { kind: 'text' } },
      { field: 'employeeCode', column: 'employee_code', type: 'text', nullable: true, value: { kind: 'text' } },
      { field: 'saleId', column: 'sale_id', type: 'id', nullable: true, value: { kind: 'id' } },
    ],
    nested: {},
  },
  /** /api/v1.0/cash-drawer-sessions: the schema CashDrawerSession. */
  'cash-drawer-sessions': {
    property: 'cashDrawerSessions',
    methods: ['list', 'bulk'],
    dayField: 'openedAt',
    columns: [
      { field: 'id', column: 'id', type: 'id', nullable: false, value: { kind: 'id' } },
      { field: 'shopCode', column: 'shop_code', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'registerCode', column: 'register_code', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'businessDate', column: 'business_date', type: 'text', nullable: false, value: { kind: 'date' } },
      { field: 'openedAt', column: 'opened_at', type: 'text', nullable: false, value: { kind: 'local-time' } },
      { field: 'openedAtUtc', column: 'opened_at_utc', type: 'text', nullable: true, value: { kind: 'instant' } },
      { field: 'closedAt', column: 'closed_at', type: 'text', nullable: true, value: { kind: 'local-time' } },
      { field: 'closedAtUtc', column: 'closed_at_utc', type: 'text', nullable: true, value: { kind: 'instant' } },
      { field: 'status', column: 'status', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'currency', column: 'currency', type: 'text', nullable: false, value: { kind: 'text' } },
      { field: 'openingFloat', column: 'opening_float', type: 'text', nullable: false, value: { kind: 'decimal', precision: null, scale: 2 } },
      { field: 'cashSales', column: 'cash_sales', type: 'text', nullable: false, value: { kind: 'decimal', precision: null, scale: 2 } },
      { field: 'cashRefunds', column: 'cash_refunds', type: 'text', nullable: false, value: { kind: 'decimal', precision: null, scale: 2 } },
      { field: 'cashIn', column: 'cash_in', type: 'text', nullable: false, value: { kind: 'decimal', precision: null, scale: 2 } },
      { field: 'cashOut', column: 'cash_out', type: 'text', nullable: false, value: { kind: 'decimal', precision: null, scale: 2 } },
      { field: 'expected', column: 'expected', type: 'text', nullable: false, value: { kind: 'decimal', precision: null, scale: 2 } },
      { field: 'counted', column: 'counted', type: 'text', nullable: true, value: { kind: 'decimal', precision: null, scale: 2 } },
      { field: 'discrepancy', column: 'discrepancy', type: 'text', nullable: true, value: { kind: 'decimal', precision: null, scale: 2 } },
      { field: 'movementCount', column: 'movement_count', type: 'int', nullable: false, value: { kind: 'int' } },
    ],
    nested: {},
  },
} as const satisfies Record<
  string,
  {
    property: string;
    methods: readonly ('list' | 'feed' | 'digest' | 'bulk')[];
    dayField: string;
    columns: readonly GeneratedColumn[];
    nested: Record<string, readonly GeneratedColumn[]>;
  }
>;
