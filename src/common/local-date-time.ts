import { badRequest } from './errors/problem';

/**
 * Shop-local date-times as the API reads and writes them: ISO 8601 without a zone designator.
 * `2026-03-01`, `2026-03-01T10:15`, `2026-03-01T10:15:30`, `2026-03-01T10:15:30.250`. This
 * pattern is both the check of the parser below and the `pattern` of From and To in the OpenAPI
 * document. Impossible dates (2026-02-30) match it and are still a 400.
 */
export const LOCAL_DATE_TIME_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?)?$';
/** The longest value the pattern admits: `2026-03-01T10:15:30.123456789`. */
export const LOCAL_DATE_TIME_MAX_LENGTH = 29;

const LOCAL = new RegExp(LOCAL_DATE_TIME_PATTERN);
const ZONED = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** A validated local date-time, in the stored form 'YYYY-MM-DD HH:MM:SS.mmm'. */
export type StoredDateTime = string;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function format(ms: number): StoredDateTime {
  const d = new Date(ms);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`
  );
}

/**
 * Parses a query parameter into the stored form, or throws a 400 naming the parameter. A bare
 * date is its midnight. Fractions beyond milliseconds round up, which keeps both an inclusive
 * From and an exclusive To exact against millisecond-precision columns.
 */
export function parseLocalDateTime(parameter: string, value: string): StoredDateTime {
  if (!LOCAL.test(value)) {
    const hint =
      ZONED.test(value) && value.includes('T')
        ? 'it must not carry a zone designator (the shop-local time is meant)'
        : 'expected an ISO 8601 date-time without zone, e.g. 2026-03-01T00:00:00';
    throw badRequest(`${parameter} is not a valid local date-time: ${hint}.`, [
      { field: parameter, message: hint },
    ]);
  }
  const [date, time = ''] = value.split('T');
  const [year, month, day] = date.split('-').map(Number);
  const [clock, fraction = ''] = time.split('.');
  const [h = 0, mi = 0, s = 0] = clock ? clock.split(':').map(Number) : [];
  const ms = Date.UTC(year, month - 1, day, h, mi, s);
  const check = new Date(ms);
  const valid =
    year >= 1000 &&
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month - 1 &&
    check.getUTCDate() === day &&
    h < 24 &&
    mi < 60 &&
    s < 60;
  if (!valid) {
    throw badRequest(`${parameter} is not a possible date-time: ${value}.`, [
      { field: parameter, message: 'no such date or time' },
    ]);
  }
  const millis = Math.ceil(Number(`0.${fraction || '0'}`) * 1000 - 1e-9);
  return format(ms + millis);
}
