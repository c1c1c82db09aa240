/**
 * Exact integer arithmetic and text formats of the seed. Money is held in integer cents,
 * quantities and unit prices in integer ten-thousandths: never a float for an amount.
 */

const MS_PER_DAY = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `numerator / denominator` rounded half away from zero; both integers, denominator > 0. */
export function roundDiv(numerator: number, denominator: number): number {
  const negative = numerator < 0;
  const abs = negative ? -numerator : numerator;
  const doubled = abs * 2 + denominator;
  const divisor = denominator * 2;
  const quotient = (doubled - (doubled % divisor)) / divisor;
  return negative ? -quotient : quotient;
}

/** An integer scaled by 10^scale as a decimal string: formatScaled(-5, 2) is '-0.05'. */
function formatScaled(value: number, scale: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer: ${value}`);
  const digits = String(value < 0 ? -value : value).padStart(scale + 1, '0');
  const cut = digits.length - scale;
  const text = scale > 0 ? `${digits.slice(0, cut)}.${digits.slice(cut)}` : digits;
  return value < 0 ? `-${text}` : text;
}

/** Cents as a DECIMAL(15,2) string: 1250 is '12.50'. */
export function formatCents(cents: number): string {
  return formatScaled(cents, 2);
}

/** Ten-thousandths as a DECIMAL(15,4) string: 7350 is '0.7350'. */
export function formatE4(value: number): string {
  return formatScaled(value, 4);
}

/** Parses a DECIMAL string into an integer at `scale` (for checks; '12.5' at 2 is 1250). */
export function parseScaled(text: string, scale: number): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal: ${text}`);
  const fraction = (match[3] ?? '').padEnd(scale, '0');
  if (fraction.length > scale && /[^0]/.test(fraction.slice(scale))) {
    throw new RangeError(`more than ${scale} decimals: ${text}`);
  }
  const value = Number(match[2]) * 10 ** scale + Number(fraction.slice(0, scale) || '0');
  return match[1] === '-' ? -value : value;
}

/** True for a real calendar date written 'YYYY-MM-DD'. */
export function isIsoDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** 'YYYY-MM-DD' plus `days` (may be negative). */
export function addDays(date: string, days: number): string {
  return new Date(dateToUtcMs(date) + days * MS_PER_DAY).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: string): number {
  return new Date(dateToUtcMs(date)).getUTCDay();
}

/** 'YYYY-MM-DD HH:MM:SS.mmm' for a date and milliseconds since its midnight (< 24 h). */
export function formatDateTime(date: string, msOfDay: number): string {
  if (!(msOfDay >= 0 && msOfDay < MS_PER_DAY))
    throw new RangeError(`ms of day out of range: ${msOfDay}`);
  const ms = msOfDay % 1000;
  const totalSeconds = (msOfDay - ms) / 1000;
  const seconds = totalSeconds % 60;
  const minutes = ((totalSeconds - seconds) / 60) % 60;
  const hours = (totalSeconds - seconds - minutes * 60) / 3600;
  return `${date} ${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(ms, 3)}`;
}

export function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function dateToUtcMs(date: string): number {
  if (!isIsoDate(date)) throw new RangeError(`not a date (YYYY-MM-DD): ${date}`);
  return Date.parse(`${date}T00:00:00Z`);
}
