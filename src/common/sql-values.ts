/**
 * Turning database values into API values, identically for mysql2 (strings, as configured) and
 * better-sqlite3 (numbers for NUMERIC columns).
 */

/** A DECIMAL as a string with exactly the column's scale: '12.50', '-3.00'. */
export function decimal(value: string | number | bigint | null, scale: number): string {
  if (value === null) throw new Error('NULL in a NOT NULL DECIMAL column');
  if (typeof value === 'string') {
    if (/^-?\d+\.\d+$/.test(value) && value.split('.')[1].length === scale) return value;
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
