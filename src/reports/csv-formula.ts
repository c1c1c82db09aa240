import type { TransactionDetailRowDto } from './dto/transaction-detail-row.dto';

/**
 * First characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"):
 * = + - @, tab, carriage return, and the fullwidth = + - @ that some spreadsheets fold to ASCII.
 */
const FORMULA_STARTS = new Set([
  '=',
  '+',
  '-',
  '@',
  '\t',
  '\r',
  '\uFF1D',
  '\uFF0B',
  '\uFF0D',
  '\uFF20',
]);

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
 * A text cell a spreadsheet will not run: one that starts like a formula gets a leading `'`
 * (OWASP's recommendation). A program reading the CSV undoes it by dropping the first character
 * of a text cell that starts with `'` followed by one of those characters (docs/reports.md).
 */
export function neutraliseFormula(text: string): string {
  return text.length > 0 && FORMULA_STARTS.has(text[0]) ? `'${text}` : text;
}
