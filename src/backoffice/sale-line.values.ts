import { decimal } from '../common/sql-values';
import type { SaleLineRow } from './read-models';

/**
 * A sale line's own fields as the contract writes them, wherever a line appears (the lines of
 * GET /sales and the rows of TransactionDetailReport): quantities and prices at 4 decimals, the
 * rest of the money at 2, as their columns hold them.
 */
export function saleLineValues(line: SaleLineRow) {
  return {
    lineNo: line.line_no,
    itemCode: line.item_code,
    description: line.description,
    quantity: decimal(line.quantity, 4),
    unitPrice: decimal(line.unit_price, 4),
    discount: decimal(line.discount, 2),
    taxRate: decimal(line.tax_rate, 2),
    net: decimal(line.net, 2),
    tax: decimal(line.tax, 2),
    gross: decimal(line.gross, 2),
  };
}
