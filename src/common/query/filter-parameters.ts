import { MAX_SHOP_CODE_LENGTH } from '../../config/limits';
import {
  LOCAL_DATE_TIME_MAX_LENGTH,
  LOCAL_DATE_TIME_PATTERN,
  parseLocalDateTime,
  StoredDateTime,
} from '../local-date-time';
import { badRequest } from '../errors/problem';
import { parameterError, QueryParameter } from './query-declaration';

/**
 * ShopCode, as the cursor endpoints and the report read it; `empty` names what a shop outside
 * the claims yields (an empty page, an empty report).
 */
export function shopCodeParameter(empty: string): QueryParameter<string, false> {
  return {
    required: false,
    shape: 'a shop code',
    description:
      'Shop to read. Omitted: every shop of the token claims. A shop outside the claims yields ' +
      `${empty} (200), never data of another shop.`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_SHOP_CODE_LENGTH },
    example: 'SHOP001',
    parse: (value, name) => {
      if (value.length === 0 || value.length > MAX_SHOP_CODE_LENGTH) {
        throw parameterError(name, `must be 1 to ${MAX_SHOP_CODE_LENGTH} characters`);
      }
      return value;
    },
  };
}

const LOCAL_DATE_TIME_FORMAT =
  'Shop-local date-time in ISO 8601 **without** zone designator ' +
  '(`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). ' +
  'A zone (`Z`, `+01:00`) or an impossible date is a 400.';

/**
 * From or To: a shop-local date-time. `role` says what the bound means for the operation
 * (inclusive or exclusive, required or unbounded when omitted); the format is the same for all.
 */
export function localDateTimeParameter<R extends boolean>(options: {
  required: R;
  role: string;
  example: string;
}): QueryParameter<StoredDateTime, R> {
  return {
    required: options.required,
    shape: 'a shop-local date-time without zone',
    description: `${options.role} ${LOCAL_DATE_TIME_FORMAT}`,
    schema: {
      type: 'string',
      pattern: LOCAL_DATE_TIME_PATTERN,
      maxLength: LOCAL_DATE_TIME_MAX_LENGTH,
    },
    example: options.example,
    parse: (value, name) => parseLocalDateTime(name, value),
  };
}

/** Examples of From and To a tool can send as-is: the month of March 2026 (31 days). */
export const FROM_EXAMPLE = '2026-03-01T00:00:00';
export const TO_EXAMPLE = '2026-04-01T00:00:00';

/** From after To is a 400 naming From (an empty period, From equal to To, is allowed). */
export function checkPeriod(from: StoredDateTime | undefined, to: StoredDateTime | undefined) {
  if (from !== undefined && to !== undefined && from > to) {
    throw parameterError('From', 'must not be after To');
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;
/** A calendar date `YYYY-MM-DD`: the pattern of the date parameters (digests, business dates). */
export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const DATE = new RegExp(DATE_PATTERN);

/** The `YYYY-MM-DD` of milliseconds since the epoch (a date's UTC midnight). */
export const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Milliseconds since the epoch of a `YYYY-MM-DD` (its UTC midnight), or a 400 naming the parameter. */
export function dateValue(value: string, name: string): number {
  if (!DATE.test(value)) throw parameterError(name, 'must be a date YYYY-MM-DD');
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || Number(value.slice(0, 4)) < 1000 || isoDate(ms) !== value) {
    throw parameterError(name, `is not a possible date: ${value}`);
  }
  return ms;
}

/** Whole days from one `YYYY-MM-DD` to another. */
export const daysBetween = (from: string, to: string): number =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;

/** A `YYYY-MM-DD` plus `days` days (negative: before). */
export const addDays = (date: string, days: number): string =>
  isoDate(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);

/** The date after a `YYYY-MM-DD`. */
export const nextDate = (date: string): string => addDays(date, 1);

/** A date's midnight in the stored form of the sources' time columns. */
export const midnight = (date: string): string => `${date} 00:00:00.000`;

/** A half-open range of business dates, `YYYY-MM-DD`: From inclusive, To exclusive. */
export interface BusinessDates {
  from: string;
  to: string;
}

/**
 * BusinessDateFrom or BusinessDateTo: a business date (a sale's own, a payment's sale's, a cash
 * movement's drawer session's: docs/database.md), instead of From and To. Empty is not given:
 * its documented example is empty, so that a tool sending every example (From and To too) is
 * answered 200, as the empty Cursor is the first page.
 */
export function businessDateParameter(role: string): QueryParameter<string | undefined, false> {
  return {
    required: false,
    shape: 'a business date YYYY-MM-DD',
    description:
      `${role} A business date \`YYYY-MM-DD\` (the trading day a record belongs to, its ` +
      '`businessDate`), instead of From and To: give both or neither, and not with From or To. ' +
      'Empty: not given.',
    schema: { type: 'string', pattern: `^$|${DATE_PATTERN}`, maxLength: 10 },
    example: '',
    parse: (value, name) => (value === '' ? undefined : isoDate(dateValue(value, name))),
  };
}

/** The business-date filters as the query declarations parse them. */
export interface PeriodParameters {
  From?: string;
  To?: string;
  BusinessDateFrom?: string;
  BusinessDateTo?: string;
}

/**
 * The business dates a request asks for, or null when it gives none. Both pairs at once, half
 * a pair, BusinessDateTo before BusinessDateFrom or more than `maxDays` days after it: a 400
 * naming the parameter. Equal dates are an empty range.
 */
export function businessDatesOf(q: PeriodParameters, maxDays: number): BusinessDates | null {
  const [from, to] = [q.BusinessDateFrom, q.BusinessDateTo];
  if (from === undefined && to === undefined) return null;
  if (q.From !== undefined || q.To !== undefined) {
    const name = q.From !== undefined ? 'From' : 'To';
    throw parameterError(name, 'must not be given with BusinessDateFrom and BusinessDateTo');
  }
  if (from === undefined)
    throw parameterError('BusinessDateFrom', 'is required with BusinessDateTo');
  if (to === undefined) throw parameterError('BusinessDateTo', 'is required with BusinessDateFrom');
  const days = daysBetween(from, to);
  if (days < 0) throw parameterError('BusinessDateTo', 'must not be before BusinessDateFrom');
  if (days > maxDays) {
    throw parameterError(
      'BusinessDateTo',
      `must be at most ${maxDays} days after BusinessDateFrom`,
    );
  }
  return { from, to };
}

/**
 * From and To when an operation needs a period and no business dates were given: each missing
 * one named in one 400 (`shape` what it is), else the pair.
 */
export function requiredPeriod<T>(from: T | undefined, to: T | undefined, shape: string): [T, T] {
  if (from !== undefined && to !== undefined) return [from, to];
  const message = `is required (${shape}), or BusinessDateFrom and BusinessDateTo`;
  const missing = [
    ...(from === undefined ? ['From'] : []),
    ...(to === undefined ? ['To'] : []),
  ].map((field) => ({ field, message }));
  throw badRequest(missing.map((e) => `${e.field} ${e.message}`).join('; ') + '.', missing);
}
