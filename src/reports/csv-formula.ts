import type { TransactionDetailRowDto } from './dto/transaction-detail-row.dto';

/**
 * First characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"):
 * = + - @, tab, carriage return, and the fullwidth = + - @ that some spreadsheets fold to ASCII.
 * The client's CSV (packages/client/src/csv-formula.ts) applies the same rule; a test checks it.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A decimal number as the service writes one: never a formula, whatever its sign. */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * The CSV columns of free text that comes from the back-office as stored: their cells are
 * neutralised. The others (amounts, quantities, ids, dates) are numbers or dates the service
 * formats itself, and stay as they are: "-12.50" is a refund, not a formula.
 */
export const CSV_TEXT_COLUMNS: ReadonlySet<keyof TransactionDetailRowDto> = new Set([
  'shopCode',
  'registerCode',
  'ticketNumber',
  'kind',
  'status',
  'employeeCode',
  'customerCode',
  'currency',
  'paymentMethods',
  'itemCode',
  'description',
] as const);

/**
 * A text cell a spreadsheet will not run: one that starts like a formula, and is not a decimal
 * number, gets a leading `'` (OWASP's recommendation). A program reading the CSV undoes it by
 * dropping the first character of a text cell that starts with `'` followed by one of those
 * characters (docs/reports.md).
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !DECIMAL.test(text) ? `'${text}` : text;
}
