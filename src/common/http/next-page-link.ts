import type { FastifyInstance } from 'fastify';
import type { RawQuery } from '../query/query-parameters';

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

/** The Fastify route config that asks for the Link header: set by ApiPageEndpoint (RouteConfig). */
export const NEXT_PAGE_LINK_CONFIG = { nextPageLink: true } as const;

/**
 * Writes the next page's Link header on the answers of the paginated routes (lists and feeds),
 * the routes ApiPageEndpoint marks with NEXT_PAGE_LINK_CONFIG: the one place for every mode. A
 * Fastify preSerialization hook, where the returned envelope passes before it is serialised,
 * rather than a Nest interceptor: an interceptor puts Nest's rxjs pipeline (defer, mergeAll,
 * two AsyncResource.bind, which on Node 20 build deprecation wrappers each time) on every page
 * request, and held it for the life of every waiting feed request (docs/performance.md).
 */
export function writeNextPageLinks(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    const config = request.routeOptions.config as Partial<typeof NEXT_PAGE_LINK_CONFIG>;
    if (config.nextPageLink === true && reply.statusCode === 200) {
      const link = nextPageLink(payload, request.query as RawQuery | undefined);
      if (link !== null) void reply.header('link', link);
    }
    done(null, payload);
  });
}
