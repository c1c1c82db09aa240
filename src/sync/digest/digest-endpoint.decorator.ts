import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../../config/app-config';
import { MAX_DIGEST_DAYS, MAX_WAITING_EXPENSIVE_READS } from '../../config/limits';
import {
  ApiProblemResponses,
  ProblemCase,
  ProblemStatus,
} from '../../common/openapi/problem-responses';
import { EMPTY_DAY_CHECKSUM } from './day-checksums';
import { DIGEST_QUERY } from './digest-query';
import { DigestDto } from './digest.dto';
import {
  DIGEST_VERSIONS,
  type DigestFields,
  NEWEST_DIGEST_VERSION,
} from '../../catalogue/digest-versions';
import { ApiQueryParameters } from '../../common/query/query-declaration';
import { QUERY_PROBLEM } from '../../common/query/query-parameters';

export interface DigestEndpointDocs {
  path: string;
  operationId: string;
  tag: string;
  /** What the records are, and which field dates them: 'sales (`soldAt`)'. */
  records: string;
  /** The list operation whose records are digested: 'GET /api/v1.0/sales'. */
  list: string;
  problems: Partial<Record<ProblemStatus, ProblemCase>>;
  /**
   * The record's fields each version's checksum covers: the document's `x-digest-fields`, which
   * the client generates its digests' fields from (packages/client/scripts/generate-types.mjs).
   */
  fields: DigestFields;
}

const DIGEST_PROBLEM: ProblemCase = {
  ...QUERY_PROBLEM,
  description:
    'A query parameter is unknown, repeated, missing or malformed (not a date, an impossible ' +
    `date, To before From, more than ${MAX_DIGEST_DAYS} days, both From/To and ` +
    'BusinessDateFrom/To or half a pair, a Version other than ' +
    `${DIGEST_VERSIONS.join(' or ')}): \`errors[]\` names each one.`,
  detail: `To: must be at most ${MAX_DIGEST_DAYS} days after From.`,
  errors: [{ field: 'To', message: `must be at most ${MAX_DIGEST_DAYS} days after From` }],
};

const DEFAULTS = new AppConfig();

/** What the expensive reads' fair share says of 429 and 503, with the defaults (decision 54.1). */
export const FAIR_SHARE_LIMITS =
  'Digests, day closes and the report share each instance fairly: DIGEST_MAX_IN_FLIGHT at once ' +
  `(${DEFAULTS.DIGEST_MAX_IN_FLIGHT} by default), a user at most DIGEST_MAX_IN_FLIGHT_PER_USER ` +
  `running (${DEFAULTS.DIGEST_MAX_IN_FLIGHT_PER_USER}) and DIGEST_QUEUE_PER_USER waiting for a ` +
  `turn (${DEFAULTS.DIGEST_QUEUE_PER_USER}), a freed place to the waiting user running fewest; ` +
  `per user and minute, DIGEST_CALLS_PER_MINUTE calls (${DEFAULTS.DIGEST_CALLS_PER_MINUTE}) and ` +
  `DIGEST_ROWS_PER_MINUTE rows read (${DEFAULTS.DIGEST_ROWS_PER_MINUTE}; a digest from the ` +
  'cache reads almost none), counted across instances.';

/** The expensive reads' budget (sync/digest/digest-budget.ts, `@DigestBudget()`). */
export const DIGEST_BUDGET_PROBLEMS: Partial<Record<ProblemStatus, ProblemCase>> = {
  429: {
    description:
      `${FAIR_SHARE_LIMITS} 429 when the caller is past one of these, or waited half of the ` +
      "request's deadline for a turn; `detail` names the limit. Wait Retry-After seconds.",
    slug: 'too-many-requests',
    title: 'Too many requests',
    detail:
      'Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most ' +
      `${DEFAULTS.DIGEST_MAX_IN_FLIGHT_PER_USER} digests running and ` +
      `${DEFAULTS.DIGEST_QUEUE_PER_USER} waiting per user; retry when one has been answered.`,
  },
  503: {
    description:
      'The service cannot serve anyone: the database, or the store that counts the calls and ' +
      `rows, is unreachable, ${MAX_WAITING_EXPENSIVE_READS} expensive reads of all users wait ` +
      "for a turn, or the database is too slow for the request's deadline; retry after " +
      'Retry-After seconds.',
    slug: 'service-unavailable',
    detail: 'The digest budget cannot be checked right now; retry shortly.',
  },
};

/** The documentation of one of the three digests. */
export function ApiDigestEndpoint(docs: DigestEndpointDocs): MethodDecorator {
  return applyDecorators(
    ApiExtension('x-digest-fields', docs.fields),
    ApiTags(docs.tag),
    ApiOperation({
      operationId: docs.operationId,
      summary: `A count and a checksum for each date of the ${docs.records}`,
      description:
        `For each shop-local date from From to To (at most ${MAX_DIGEST_DAYS} days), the number ` +
        `of ${docs.records} of that date and a checksum over them exactly as ${docs.list} ` +
        'returns them. Compare with the same computed on your copy: a date whose checksum ' +
        'differs (an edit, a void, an insert or a delete) is re-read exactly by the list with ' +
        '`From=<date>`, `To=<next date>`; the others are equal. The checksum rule: ' +
        'docs/sync.md. The fields a checksum covers are those of the digest version the answer ' +
        'names (`Version`, the newest when absent; docs/sync.md, "Digest versions"): a copy ' +
        'verifies with the version it was built on. With BusinessDateFrom and BusinessDateTo ' +
        'instead, one entry per business date, over the records whose `businessDate` it is ' +
        '(re-read by the list with the same parameters; computed at each request). A shop ' +
        'outside the token claims gives `{"version": …, "data": []}`.',
    }),
    ApiQueryParameters(DIGEST_QUERY),
    ApiOkResponse({
      type: DigestDto,
      description: 'One entry per date of the period, in date order.',
      example: {
        version: NEWEST_DIGEST_VERSION,
        data: [
          {
            date: '2026-03-01',
            count: 2,
            checksum: '9c1f3a0e5b7d2c4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e',
          },
          { date: '2026-03-02', count: 0, checksum: EMPTY_DAY_CHECKSUM },
        ],
      },
    }),
    ApiProblemResponses(docs.path, {
      400: DIGEST_PROBLEM,
      ...docs.problems,
      ...DIGEST_BUDGET_PROBLEMS,
    }),
  );
}
