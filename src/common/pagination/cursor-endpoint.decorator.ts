import { applyDecorators, Type, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MAX_PAGE_LIMIT } from '../../config/limits';
import { ApiProblemResponses, ProblemCase, ProblemStatus } from '../openapi/problem-responses';
import type { Page } from './keyset-resource';
import { NEXT_LINK_HEADER, NextPageLinkInterceptor } from './next-page-link';
import { PAGE_QUERY } from './page-query';
import { ApiQueryParameters } from './query-declaration';
import { QUERY_PROBLEM } from './query-parameters';

export interface CursorEndpointDocs<T> {
  /** Path of the route, for the examples' `instance`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** The page class (SalesPageDto, ...). */
  page: Type<Page<T>>;
  example: T;
  /** The route's problems besides the 400 of its parameters (the guards' 401 and 403). */
  problems: Partial<Record<ProblemStatus, ProblemCase>>;
}

/** What a nextCursor looks like (opaque: clients never build or parse one). */
export const CURSOR_EXAMPLE =
  'WzEsInNhbGVzIiwiNDIiLG51bGwsbnVsbCxudWxsLCIyMDI2LTAzLTAxIDEwOjE1OjMwLjI1MCIsIjEwNDg1NzYiXQ.' +
  'q8c3n3yG1m8n2lJm3x1Zl1oB9f2c1a0e4X7y6w5v4u0';

const PAGINATION_NOTE =
  `\n\nPages hold up to ${MAX_PAGE_LIMIT} records (Limit), ordered by shop-local date-time, then id. ` +
  'Read the next page by passing `nextCursor` as Cursor, until `nextCursor` is null. ' +
  'A shop outside the token claims gives an empty page, never an error.';

/** The documentation of one of the three cursor endpoints: parameters, page, problems. */
export function ApiCursorEndpoint<T>(docs: CursorEndpointDocs<T>): MethodDecorator {
  return applyDecorators(
    UseInterceptors(NextPageLinkInterceptor),
    ApiTags(docs.tag),
    ApiOperation({
      operationId: docs.operationId,
      summary: docs.summary,
      description: docs.description + PAGINATION_NOTE,
    }),
    ApiQueryParameters(PAGE_QUERY),
    ApiOkResponse({
      type: docs.page,
      description: 'A page of records and the cursor of the next page.',
      headers: NEXT_LINK_HEADER,
      example: { data: [docs.example], nextCursor: CURSOR_EXAMPLE },
    }),
    ApiProblemResponses(docs.path, { 400: QUERY_PROBLEM, ...docs.problems }),
  );
}
