import { applyDecorators } from '@nestjs/common';
import { ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { HeaderObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { STATUS_CODES } from 'node:http';
import { problemType } from '../errors/problem';
import { ProblemDetailsDto } from '../errors/problem-details.dto';

/** The error statuses an operation can answer, each documented with a problem+json body. */
export type ProblemStatus = 400 | 401 | 403 | 406 | 413 | 415 | 429 | 500 | 503;

/** What one status means on one kind of route, with a realistic example. */
export interface ProblemCase {
  description: string;
  slug: string;
  title?: string;
  detail: string;
  errors?: ProblemDetailsDto['errors'];
}

const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'integer', minimum: 1 },
};

const HEADERS: Partial<Record<ProblemStatus, Record<string, HeaderObject>>> = {
  401: {
    'WWW-Authenticate': {
      description: 'RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`.',
      schema: { type: 'string' },
    },
  },
  429: { 'Retry-After': RETRY_AFTER },
  503: { 'Retry-After': RETRY_AFTER },
};

/** What every route can answer besides its own cases. */
const COMMON_PROBLEMS: Partial<Record<ProblemStatus, ProblemCase>> = {
  500: {
    description: 'Unexpected error. Quote the requestId when reporting it.',
    slug: 'internal-error',
    detail: 'An unexpected error occurred. Quote the request id when reporting it.',
  },
  503: {
    description:
      'The database is unreachable, or too slow to serve the request within its deadline ' +
      '(15 s by default); retry after Retry-After seconds.',
    slug: 'service-unavailable',
    detail: 'The database is unavailable right now; retry shortly.',
  },
};

/** One documented problem response; `instance` is the path of the operation. */
function ApiProblemResponse(
  status: ProblemStatus,
  instance: string,
  problem: ProblemCase,
): MethodDecorator & ClassDecorator {
  const example: ProblemDetailsDto = {
    type: problemType(problem.slug),
    title: problem.title ?? STATUS_CODES[status] ?? 'Error',
    status,
    detail: problem.detail,
    instance,
    requestId: '5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59',
    ...(problem.errors ? { errors: problem.errors } : {}),
  };
  return ApiResponse({
    status,
    description: problem.description,
    ...(HEADERS[status] ? { headers: HEADERS[status] } : {}),
    content: {
      'application/problem+json': {
        schema: { $ref: getSchemaPath(ProblemDetailsDto) },
        example,
      },
    },
  });
}

/** Problem responses for a route: its own cases plus 500 and 503. */
export function ApiProblemResponses(
  instance: string,
  cases: Partial<Record<ProblemStatus, ProblemCase>>,
): MethodDecorator & ClassDecorator {
  const all = Object.entries({ ...COMMON_PROBLEMS, ...cases })
    .map(([status, problem]) => [Number(status) as ProblemStatus, problem] as const)
    .sort(([a], [b]) => a - b);
  return applyDecorators(
    ...all.map(([status, problem]) => ApiProblemResponse(status, instance, problem)),
  );
}
