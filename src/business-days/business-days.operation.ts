import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { ApiProblemResponses } from '../common/openapi/problem-responses';
import { EMPTY_DAY_CHECKSUM } from '../sync/digest/day-checksums';
import { DIGEST_BUDGET_PROBLEMS } from '../sync/digest/digest-endpoint.decorator';
import { NEWEST_DIGEST_VERSION } from '../catalogue/digest-versions';
import { ApiQueryParameters } from '../common/query/query-declaration';
import { QUERY_PROBLEM } from '../common/query/query-parameters';
import { apiPath } from '../config/api-prefix';
import { MAX_DIGEST_DAYS } from '../config/limits';
import { BusinessDaysDto, type BusinessDayDto } from './business-day.dto';
import { BUSINESS_DAYS_QUERY } from './business-days.query';

export const BUSINESS_DAYS_TAG = 'Business days';

const EMPTY = { count: 0, checksum: EMPTY_DAY_CHECKSUM };

/** A bar's Saturday, and its Sunday when it stayed closed. */
const EXAMPLE_DAYS: BusinessDayDto[] = [
  {
    businessDate: '2026-03-07',
    sales: {
      completed: 212,
      returns: 3,
      voided: 2,
      gross: '4518.70',
      net: '3734.46',
      tax: '784.24',
      discount: '61.20',
      taxRates: [
        { taxRate: '10.00', net: '1180.00', tax: '118.00', gross: '1298.00' },
        { taxRate: '21.00', net: '2554.46', tax: '666.24', gross: '3220.70' },
      ],
    },
    payments: {
      count: 219,
      amount: '4518.70',
      methods: [
        { method: 'CARD', count: 151, amount: '3342.10' },
        { method: 'CASH', count: 68, amount: '1176.60' },
      ],
    },
    cash: {
      sessions: 2,
      open: 0,
      openingFloat: '300.00',
      expected: '1476.60',
      counted: '1475.10',
      discrepancy: '-1.50',
    },
    digests: {
      sales: {
        count: 217,
        checksum: '4f6d1c9b2e8a7035d1e4b6a8c0f2e4d6b8a0c2e4f6a8b0d2c4e6f8a0b2d4c6e8',
      },
      payments: {
        count: 219,
        checksum: '0b7e3a5c9d1f2e4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4a6c8e0a2c4e6a8c0e2a',
      },
      cashMovements: {
        count: 74,
        checksum: 'a3c5e7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5',
      },
    },
  },
  {
    businessDate: '2026-03-08',
    sales: {
      completed: 0,
      returns: 0,
      voided: 0,
      gross: '0.00',
      net: '0.00',
      tax: '0.00',
      discount: '0.00',
      taxRates: [],
    },
    payments: { count: 0, amount: '0.00', methods: [] },
    cash: {
      sessions: 0,
      open: 0,
      openingFloat: '0.00',
      expected: '0.00',
      counted: '0.00',
      discrepancy: '0.00',
    },
    digests: { sales: EMPTY, payments: EMPTY, cashMovements: EMPTY },
  },
];

/** The documentation of GET /business-days. */
export function ApiBusinessDays(): MethodDecorator {
  const path = apiPath('business-days');
  return applyDecorators(
    ApiTags(BUSINESS_DAYS_TAG),
    ApiOperation({
      operationId: 'listBusinessDays',
      summary: 'The day close: one entry per business date, with its totals and digests',
      description:
        `For each business date from From to To (at most ${MAX_DIGEST_DAYS} days; From ` +
        'inclusive, To exclusive), empty days included: the counts and sums of its sales, its ' +
        'payments by method, its drawer sessions summed, and a count and a checksum of its ' +
        'sales, payments and cash movements. Every figure is a sum over the records the list ' +
        "endpoints return with that `businessDate` (the trading day: a bar's night after " +
        "midnight belongs to the day it started), and every digest is the digests' checksum " +
        '(docs/sync.md) over exactly those records: re-read a day whose digest differs from ' +
        'your copy\'s. The rules of the figures: docs/database.md, "The day close". An expensive ' +
        "read, in the digests' fair share (429 and 503 below). A shop outside the token claims " +
        'gives `{"version": …, "data": []}`.',
    }),
    ApiQueryParameters(BUSINESS_DAYS_QUERY),
    ApiOkResponse({
      type: BusinessDaysDto,
      description: 'One entry per business date of the period, in date order.',
      example: { version: NEWEST_DIGEST_VERSION, data: EXAMPLE_DAYS },
    }),
    ApiProblemResponses(path, {
      400: {
        ...QUERY_PROBLEM,
        description:
          'A query parameter is unknown, repeated, missing or malformed (not a date, an ' +
          `impossible date, To before From, more than ${MAX_DIGEST_DAYS} days, an unknown ` +
          'Version): `errors[]` names each one.',
        detail: 'From: must be a date YYYY-MM-DD.',
        errors: [{ field: 'From', message: 'must be a date YYYY-MM-DD' }],
      },
      ...BEARER_PROBLEMS,
      ...DIGEST_BUDGET_PROBLEMS,
    }),
  );
}
