import { applyDecorators, Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Page } from '../../common/pagination/keyset-resource';
import { MAX_LIMIT } from '../../common/pagination/page-query';
import { CURSOR_EXAMPLE } from '../examples/record.examples';
import { PAGE_QUERIES } from '../page-query.docs';
import { ApiProblemResponses } from '../problem-responses';
import { BEARER_PROBLEMS, QUERY_PROBLEM } from './data-route-problems';

export interface CursorEndpointDocs<T> {
  /** Path of the route, for the examples' `instance`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** The page schema class (SalesPage, ...). */
  page: Type<Page<T>>;
  example: T;
}

const PAGINATION_NOTE =
  `\n\nPages hold up to ${MAX_LIMIT} records (Limit), ordered by shop-local date-time, then id. ` +
  'Read the next page by passing `nextCursor` as Cursor, until `nextCursor` is null. ' +
  'A shop outside the token claims gives an empty page, never an error.';

/** The documentation of one of the three cursor endpoints: parameters, page, problems. */
export function ApiCursorEndpoint<T>(docs: CursorEndpointDocs<T>): MethodDecorator {
  return applyDecorators(
    ApiTags(docs.tag),
    ApiOperation({
      operationId: docs.operationId,
      summary: docs.summary,
      description: docs.description + PAGINATION_NOTE,
    }),
    ...PAGE_QUERIES.map((query) => ApiQuery(query)),
    ApiOkResponse({
      type: docs.page,
      description: 'A page of records and the cursor of the next page.',
      example: { data: [docs.example], nextCursor: CURSOR_EXAMPLE },
    }),
    ApiProblemResponses(docs.path, { 400: QUERY_PROBLEM, ...BEARER_PROBLEMS }),
  );
}
