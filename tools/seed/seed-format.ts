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

/**
 * The shop's wall-clock time of `msOfDay` of a business date, stored form. Below 24 h it is that
 * date's time, as `formatDateTime` writes it. From 24 h on (a business day that runs past
 * midnight, a bar's) it is the time elapsed since the next local midnight, read on the zone's
 * clock: a night that crosses a spring-forward change skips the missing hour, one that crosses a
 * fall-back change shows the repeated hour's times twice. Below 48 h.
 */
export function formatShopDateTime(date: string, msOfDay: number, timeZone: string): string {
  if (!(msOfDay >= MS_PER_DAY)) return formatDateTime(date, msOfDay);
  if (!(msOfDay < 2 * MS_PER_DAY)) throw new RangeError(`ms of day out of range: ${msOfDay}`);
  const midnight = localMidnightUtcMs(addDays(date, 1), timeZone);
  return wallClock(midnight + msOfDay - MS_PER_DAY, timeZone);
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** 'YYYY-MM-DD HH:MM:SS.mmm' of an instant on the zone's clock. */
function wallClock(utcMs: number, timeZone: string): string {
  let format = wallClocks.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClocks.set(timeZone, format);
  }
  const part = Object.fromEntries(
    format.formatToParts(new Date(utcMs)).map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const ms = pad(((utcMs % 1000) + 1000) % 1000, 3);
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}.${ms}`;
}

/** The instant of a date's local midnight in a zone (none of the seed's zones changes at 00:00). */
function localMidnightUtcMs(date: string, timeZone: string): number {
  const naive = dateToUtcMs(date);
  const offsetAt = (utcMs: number): number =>
    Date.parse(`${wallClock(utcMs, timeZone).replace(' ', 'T')}Z`) - utcMs;
  const guess = naive - offsetAt(naive);
  return naive - offsetAt(guess);
}

export function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function dateToUtcMs(date: string): number {
  if (!isIsoDate(date)) throw new RangeError(`not a date (YYYY-MM-DD): ${date}`);
  return Date.parse(`${date}T00:00:00Z`);
}
