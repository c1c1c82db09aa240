import type { QueryDeclaration } from '../../common/query/query-declaration';
import { apiPath } from '../../config/api-prefix';
import type { Mode, ModeQuery } from './mode';
import type { Source } from '../../catalogue/source';

/**
 * One endpoint of a resource in one mode: `GET /sales` is (list, the sales' source, their
 * mapper), `GET /sales/feed` is (feed, the same source, the same mapper).
 */
export interface PagedEndpoint<Q extends ModeQuery, X extends object, E extends object, R, T> {
  /** Its route below the API prefix, and the name bound into its cursors. */
  route: string;
  /** Its route with the API prefix. */
  path: string;
  mode: Mode<Q, X, E>;
  source: Source<R>;
  /** Its query parameters (the mode's, for this source): the parser's and the document's. */
  parameters: QueryDeclaration;
  toRecord(row: R): T;
}

/** The endpoint of `resource` (its route: `sales`) in `mode` over `source`, rows mapped by `toRecord`. */
export function pagedEndpoint<Q extends ModeQuery, X extends object, E extends object, R, T>(
  resource: string,
  mode: Mode<Q, X, E>,
  source: Source<R>,
  toRecord: (row: R) => T,
): PagedEndpoint<Q, X, E, R, T> {
  const route = mode.route === null ? resource : `${resource}/${mode.route}`;
  const parameters = mode.parameters(source);
  return { route, path: apiPath(route), mode, source, parameters, toRecord };
}
