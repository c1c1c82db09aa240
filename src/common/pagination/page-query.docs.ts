import type { ApiQueryOptions } from '@nestjs/swagger';
import { MAX_PAGE_LIMIT, MAX_PARAMETER_LENGTH, MAX_SHOP_CODE_LENGTH } from '../../config/limits';

/**
 * What `parseLocalDateTime` (src/common/local-date-time.ts) accepts as far as a pattern can say:
 * a date, optionally a time to minutes, seconds and fractions, and no zone designator.
 * Impossible dates (2026-02-30) match the pattern and are still a 400.
 */
export const LOCAL_DATE_TIME_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?)?$';

const CASE_NOTE = 'Parameter names match case-insensitively (`shopcode` is `ShopCode`).';

const localDateTime = (name: 'From' | 'To', bound: string): ApiQueryOptions => ({
  name,
  required: false,
  description:
    `${bound} Shop-local date-time in ISO 8601 **without** zone designator ` +
    '(`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). ' +
    `A zone (\`Z\`, \`+01:00\`) or an impossible date is a 400. ${CASE_NOTE}`,
  schema: { type: 'string', pattern: LOCAL_DATE_TIME_PATTERN, maxLength: 29 },
});

export const SHOP_CODE_QUERY: ApiQueryOptions = {
  name: 'ShopCode',
  required: false,
  description:
    'Shop to read. Omitted: every shop of the token claims. A shop outside the claims yields ' +
    `an empty page (200), never data of another shop. ${CASE_NOTE}`,
  schema: { type: 'string', minLength: 1, maxLength: MAX_SHOP_CODE_LENGTH },
};

export const FROM_QUERY = localDateTime(
  'From',
  'Start of the period, inclusive. Omitted: unbounded.',
);

export const TO_QUERY = localDateTime(
  'To',
  'End of the period, exclusive; must not be before From. Omitted: unbounded.',
);

/**
 * ShopCode, From and To, as the three cursor endpoints read them. No parameter examples: Swagger
 * UI would prefill "Try it out" with them (a shop and a month that are not the reader's); the
 * descriptions show the formats instead.
 */
export const FILTER_QUERIES: readonly ApiQueryOptions[] = [SHOP_CODE_QUERY, FROM_QUERY, TO_QUERY];

/** The parameters of the three cursor endpoints, in the contract's spelling. */
export const PAGE_QUERIES: readonly ApiQueryOptions[] = [
  ...FILTER_QUERIES,
  {
    name: 'Cursor',
    required: false,
    description:
      'The `nextCursor` of the previous page, exactly as returned (opaque, signed, bound to the ' +
      'query and the caller). With a cursor, ShopCode, From and To may be left out; given again, ' +
      `they must match the query the cursor belongs to (else 400). ${CASE_NOTE}`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_PARAMETER_LENGTH },
  },
  {
    name: 'Limit',
    required: false,
    description: `Records per page, 1 to ${MAX_PAGE_LIMIT}. ${CASE_NOTE}`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: MAX_PAGE_LIMIT },
  },
];
