import { applyDecorators, Type } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiProblemResponses,
  ProblemCase,
  ProblemStatus,
} from '../../common/openapi/problem-responses';
import { NEXT_LINK_HEADER, NEXT_PAGE_LINK_CONFIG } from '../../common/http/next-page-link';
import type { ModeDocs } from './page-docs';
import { ApiQueryParameters, QueryDeclaration } from '../../common/query/query-declaration';
import { QUERY_PROBLEM } from '../../common/query/query-parameters';

/** What a paginated endpoint is, for its documentation (backoffice's PagedEndpoint has it all). */
export interface PagedEndpointShape {
  /** Its path, with the API prefix (for the examples' `instance`). */
  path: string;
  parameters: QueryDeclaration;
  mode: { docs: ModeDocs };
}

export interface PageEndpointDocs<T> {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** The page class (SalesPageDto, SalesFeedPageDto...). */
  page: Type<unknown>;
  example: T;
  /** The route's problems besides the 400 of its parameters (the guards' 401 and 403). */
  problems: Partial<Record<ProblemStatus, ProblemCase>>;
}

/** What a nextCursor looks like (opaque: clients never build or parse one). */
export const CURSOR_EXAMPLE =
  'WzEsInNhbGVzIiwiNDIiLG51bGwsbnVsbCxudWxsLCIyMDI2LTAzLTAxIDEwOjE1OjMwLjI1MCIsIjEwNDg1NzYiXQ.' +
  'q8c3n3yG1m8n2lJm3x1Zl1oB9f2c1a0e4X7y6w5v4u0';

/**
 * The documentation of a paginated endpoint in any mode: its parameters, its page with an
 * example and the next page's Link header (written by writeNextPageLinks on the routes marked
 * here, for every mode), its problems, and its mode's note (how to page through it).
 */
export function ApiPageEndpoint<T>(
  endpoint: PagedEndpointShape,
  docs: PageEndpointDocs<T>,
): MethodDecorator {
  const mode = endpoint.mode.docs;
  return applyDecorators(
    RouteConfig(NEXT_PAGE_LINK_CONFIG),
    ApiTags(docs.tag),
    ApiOperation({
      operationId: docs.operationId,
      summary: docs.summary,
      description: docs.description + mode.note,
    }),
    ApiQueryParameters(endpoint.parameters),
    ApiOkResponse({
      type: docs.page,
      description: mode.ok,
      headers: NEXT_LINK_HEADER,
      example: { data: [docs.example], ...mode.example(CURSOR_EXAMPLE) },
    }),
    ApiProblemResponses(endpoint.path, { 400: QUERY_PROBLEM, ...docs.problems }),
  );
}
