import { MAX_SHOP_CODE_LENGTH } from '../../config/limits';
import {
  LOCAL_DATE_TIME_MAX_LENGTH,
  LOCAL_DATE_TIME_PATTERN,
  parseLocalDateTime,
  StoredDateTime,
} from '../local-date-time';
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
