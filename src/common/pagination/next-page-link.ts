import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, tap } from 'rxjs';
import type { RawQuery } from './query-parameters';

/** What the Link header reads of a page envelope: a list's page or a feed's. */
interface PageEnvelope {
  nextCursor?: unknown;
  /** Feeds only: true when there is nothing more to read now. */
  caughtUp?: unknown;
}

/** The request's Limit (any case of the name, as the query reads it), to keep the page size. */
function limitOf(query: RawQuery | undefined): string | undefined {
  const name = Object.keys(query ?? {}).find((key) => key.toLowerCase() === 'limit');
  const value = name === undefined ? undefined : query?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The `Link` header (RFC 8288) of a page that has a next one: a list's page whose `nextCursor` is
 * not null, a feed's page that is not caught up. The target is a relative reference holding only
 * the query (`?Cursor=…`, plus the request's Limit), resolved against the request's own URL: it
 * never names a host (never the Host header's), carries no token, and stays right behind a
 * proxy that maps the path. Its Cursor is the body's nextCursor. Null: no next page.
 */
function nextPageLink(page: unknown, query: RawQuery | undefined): string | null {
  const { nextCursor, caughtUp } = (page ?? {}) as PageEnvelope;
  if (typeof nextCursor !== 'string' || caughtUp === true) return null;
  const limit = limitOf(query);
  const target =
    `?Cursor=${encodeURIComponent(nextCursor)}` +
    (limit === undefined ? '' : `&Limit=${encodeURIComponent(limit)}`);
  return `<${target}>; rel="next"`;
}

/** The header as the OpenAPI document describes it on every paginated route's 200. */
export const NEXT_LINK_HEADER = {
  Link: {
    description:
      'When there is a next page (a list: `nextCursor` is not null; a feed: `caughtUp` is ' +
      'false): `<?Cursor=…>; rel="next"` (RFC 8288), relative to this request\'s URL, with the ' +
      "body's `nextCursor` and the request's Limit. Lets a client ask for the next page while " +
      'this one is still arriving.',
    schema: { type: 'string' as const },
  },
};

/**
 * Writes the next page's Link header on the answers of the paginated routes (lists and feeds):
 * the one place for every mode, applied by ApiPageEndpoint.
 */
@Injectable()
export class NextPageLinkInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest<{ Querystring: RawQuery }>>();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      tap((page) => {
        const link = nextPageLink(page, request.query);
        if (link !== null) void reply.header('link', link);
      }),
    );
  }
}
