/**
 * The line of the one sale the examples of the document describe (SHOP001, 2026-03-01): the
 * sale's example carries it, and so does the report row of that sale, so the two agree.
 */
export const EXAMPLE_SALE_LINE = {
  lineNo: 1,
  itemCode: '8410000000012',
  description: 'Aceite de oliva virgen extra 1 l',
  quantity: '1.0000',
  unitPrice: '12.5000',
  discount: '0.00',
  taxRate: '21.00',
  net: '10.33',
  tax: '2.17',
  gross: '12.50',
};
