/**
 * The CSV formula rule, the same as the service's TransactionDetailReport CSV (written once in
 * the service's docs/reports.md, "Formulas are neutralised in CSV"; a test checks the two agree):
 * a text cell that starts with = + - @, a tab, a carriage return or the fullwidth ＝ ＋ － ＠ gets
 * a leading `'`, so a spreadsheet shows it instead of running it, unless the whole cell is a
 * decimal number (a refund's "-2.42" stays a number).
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !DECIMAL.test(text) ? `'${text}` : text;
}
