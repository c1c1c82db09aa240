import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { HeaderObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { BEARER_PROBLEMS } from '../auth/bearer-problems';
import { ApiProblemResponses } from '../common/openapi/problem-responses';
import { ApiQueryParameters } from '../common/query/query-declaration';
import { QUERY_PROBLEM } from '../common/query/query-parameters';
import { apiPath } from '../config/api-prefix';
import {
  MAX_REPORT_DAYS,
  MAX_WAITING_EXPENSIVE_READS,
  REPORT_CALLS_PER_MINUTE,
} from '../config/limits';
import { FAIR_SHARE_LIMITS } from '../sync/digest/digest-endpoint.decorator';
import { REPORT_CSV_EXAMPLE, REPORT_EXAMPLE } from './dto/transaction-detail-report.example';
import { TransactionDetailReportDto } from './dto/transaction-detail-report.dto';
import { REPORT_QUERY } from './report-query';

const integerHeader = (description: string): HeaderObject => ({
  description,
  schema: { type: 'integer', minimum: 0 },
});

const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'RateLimit-Limit': integerHeader(
    `Calls allowed per minute and user (${REPORT_CALLS_PER_MINUTE}).`,
  ),
  'RateLimit-Remaining': integerHeader('Calls left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window resets.'),
  'RateLimit-Policy': {
    description: `The policy, e.g. \`${REPORT_CALLS_PER_MINUTE};w=60\`.`,
    schema: { type: 'string' },
  },
};

/** OpenAPI documentation of GET /api/v1.0/TransactionDetailReport (JSON and CSV). */
export const ApiTransactionDetailReport = (): MethodDecorator =>
  applyDecorators(
    ApiTags('Reports'),
    ApiExtraModels(TransactionDetailReportDto),
    ApiOperation({
      operationId: 'getTransactionDetailReport',
      summary: 'Transaction detail report',
      description:
        'One row per sale line of the shops in the token claims for a period of at most ' +
        `${MAX_REPORT_DAYS} days, with each sale's header fields and payment methods, and totals. ` +
        'JSON by default; CSV (RFC 4180, the same columns, without totals) when the Accept ' +
        'header prefers `text/csv`. The response streams, whatever the period. ' +
        `Limited to ${REPORT_CALLS_PER_MINUTE} calls a minute per user, across all instances; the ` +
        'cursor endpoints are not under this limit.',
    }),
    ApiQueryParameters(REPORT_QUERY),
    ApiResponse({
      status: 200,
      description: 'The report, as JSON or as CSV depending on the Accept header.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        'Content-Disposition': {
          description: 'For CSV: `attachment; filename="TransactionDetailReport_….csv"`.',
          schema: { type: 'string' },
        },
      },
      content: {
        'application/json': {
          schema: { $ref: getSchemaPath(TransactionDetailReportDto) },
          example: REPORT_EXAMPLE,
        },
        'text/csv': {
          schema: { type: 'string', description: 'RFC 4180 CSV, UTF-8, CRLF, a header row.' },
          example: REPORT_CSV_EXAMPLE,
        },
      },
    }),
    ApiProblemResponses(apiPath('TransactionDetailReport'), {
      400: {
        ...QUERY_PROBLEM,
        description: `${QUERY_PROBLEM.description} From and To, or BusinessDateFrom and BusinessDateTo (not both pairs, not half of one), are required and at most ${MAX_REPORT_DAYS} days apart.`,
      },
      ...BEARER_PROBLEMS,
      429: {
        description:
          `More than ${REPORT_CALLS_PER_MINUTE} calls in a minute by this user, or past the ` +
          `expensive reads' fair share (\`detail\` names the limit). ${FAIR_SHARE_LIMITS} ` +
          'Wait Retry-After seconds.',
        slug: 'too-many-requests',
        title: 'Too many requests',
        detail: `Rate limit exceeded: ${REPORT_CALLS_PER_MINUTE} reports a minute per user.`,
      },
      503: {
        description:
          'The service cannot serve anyone: the database, or the store that counts report calls ' +
          `and rows, is unreachable, ${MAX_WAITING_EXPENSIVE_READS} expensive reads of all users ` +
          "wait for a turn, or the database is too slow to start the report within the request's " +
          'deadline (counted to its first byte; such a call is not counted); retry after ' +
          'Retry-After seconds.',
        slug: 'service-unavailable',
        detail: 'The database is unavailable right now; retry shortly.',
      },
    }),
  );
