import type { FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../config/api-prefix';

const API_PATH = `/${API_PREFIX}/`;

/**
 * Whether the request matched a route under `prefix` (an API route by default). Decided on the
 * matched route's pattern, never the raw URL: routing decodes the path (`/%61pi/…`) and accepts an
 * absolute-form target (`http://host/api/…`), so a test of `request.url` is skipped by another
 * spelling of the same route (issue 44). An unmatched request (404) is on no route.
 */
export function onApiRoute(request: FastifyRequest, prefix = API_PATH): boolean {
  return request.routeOptions.url?.startsWith(prefix) === true;
}
