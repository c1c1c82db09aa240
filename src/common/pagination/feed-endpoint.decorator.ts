import { applyDecorators, Type, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MAX_PAGE_LIMIT } from '../../config/limits';
import { ApiProblemResponses } from '../openapi/problem-responses';
import { CURSOR_EXAMPLE, CursorEndpointDocs } from './cursor-endpoint.decorator';
import type { FeedPage } from './feed-paginator';
import type { FeedDeclaration } from './feed-query';
import { NEXT_LINK_HEADER, NextPageLinkInterceptor } from './next-page-link';
import { ApiQueryParameters } from './query-declaration';
import { QUERY_PROBLEM } from './query-parameters';

export interface FeedEndpointDocs<T> extends Omit<CursorEndpointDocs<T>, 'page'> {
  page: Type<FeedPage<T>>;
  query: FeedDeclaration;
}

const FEED_NOTE =
  `\n\nPages hold up to ${MAX_PAGE_LIMIT} records (Limit), in the order they reached the ` +
  'back office (their id), whatever their business date-time: a register that uploads a day ' +
  'late still shows up here. Every committed record is delivered once, none is skipped. ' +
  'Store `nextCursor` after each page; read on while `caughtUp` is false, then poll again ' +
  'later with the stored cursor. A change made later to a record already delivered (a sale ' +
  'voided) does not bring it back: see docs/sync.md. A shop outside the token claims gives ' +
  'an empty page, never an error.';

/** The documentation of one of the three feeds: parameters, page, problems. */
export function ApiFeedEndpoint<T>(docs: FeedEndpointDocs<T>): MethodDecorator {
  return applyDecorators(
    UseInterceptors(NextPageLinkInterceptor),
    ApiTags(docs.tag),
    ApiOperation({
      operationId: docs.operationId,
      summary: docs.summary,
      description: docs.description + FEED_NOTE,
    }),
    ApiQueryParameters(docs.query),
    ApiOkResponse({
      type: docs.page,
      description:
        'A page of records in arrival order, the cursor to resume from and whether the feed is caught up.',
      headers: NEXT_LINK_HEADER,
      example: { data: [docs.example], nextCursor: CURSOR_EXAMPLE, caughtUp: true },
    }),
    ApiProblemResponses(docs.path, { 400: QUERY_PROBLEM, ...docs.problems }),
  );
}
