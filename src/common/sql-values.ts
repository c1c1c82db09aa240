/**
 * Turning database values into API values, identically for mysql2 (strings, as configured) and
 * better-sqlite3 (numbers for NUMERIC columns).
 */

/**
 * Whether a string is already a decimal written with exactly `scale` fraction digits
 * (`-?\d+\.\d{scale}`), as mysql2 returns DECIMAL columns. Checked character by character:
 * it runs for every money value of every page, and a RegExp plus split() allocated more than
 * the rest of the row mapping (docs/performance.md).
 */
export function isScaledDecimal(value: string, scale: number): boolean {
  const dot = value.length - scale - 1;
  const start = value.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  if (scale < 1 || dot <= start || value.charCodeAt(dot) !== 46 /* . */) return false;
  for (let i = start; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (i !== dot && (c < 48 /* 0 */ || c > 57) /* 9 */) return false;
  }
  return true;
}

/** A DECIMAL as a string with exactly the column's scale: '12.50', '-3.00'. */
export function decimal(value: string | number | bigint | null, scale: number): string {
  if (value === null) throw new Error('NULL in a NOT NULL DECIMAL column');
  if (typeof value === 'string') {
    if (isScaledDecimal(value, scale)) return value;
    return Number(value).toFixed(scale);
  }
  if (typeof value === 'bigint') return scale > 0 ? `${value}.${'0'.repeat(scale)}` : `${value}`;
  return value.toFixed(scale);
}

export function nullableString(value: string | number | bigint | null | undefined): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** A stored DATETIME(3) 'YYYY-MM-DD HH:MM:SS.mmm' as 'YYYY-MM-DDTHH:MM:SS.mmm'. */
export function localDateTime(value: string): string {
  return value.replace(' ', 'T');
}

/**
 * A DECIMAL of scale 2 as integer cents, exactly: mysql2's string ('-12.5', '3.00') digit by
 * digit, better-sqlite3's number rounded to the cent (a DECIMAL(15,2) fits a double's 15 digits).
 */
export function cents(value: string | number): bigint {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not an amount: ${value}`);
    return BigInt(Math.round(value * 100));
  }
  // The form the mappers write and mysql2 returns: the digits without the dot, no RegExp.
  if (isScaledDecimal(value, 2)) return BigInt(value.slice(0, -3) + value.slice(-2));
  const match = /^(-?)(\d*)(?:\.(\d{0,2})0*)?$/.exec(value.trim());
  if (!match || (match[2] === '' && match[3] === undefined)) {
    throw new Error(`not an amount of 2 decimals: ${value}`);
  }
  const whole = BigInt(`${match[2] || '0'}${(match[3] ?? '').padEnd(2, '0')}`);
  return match[1] === '-' ? -whole : whole;
}

/** Integer cents as the API writes money: '12.50', '-0.05'. */
export function fromCents(value: bigint): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
