import { Injectable } from '@nestjs/common';
import type { CallerClaims, ScopedToCaller } from '../common/caller-claims';
import { CursorCodec } from '../common/pagination/cursor-codec';
import type { Page } from '../common/pagination/page.dto';
import { parsePageRequest } from '../common/pagination/page-query';
import type { QueryDeclaration } from '../common/pagination/query-declaration';
import type { RawQuery } from '../common/pagination/query-parameters';
import { apiPath } from '../config/api-prefix';
import type { Mode, ModeQuery } from './modes/mode';
import { ShopScopedReaders } from './shop-scoped-reader';
import type { Source } from './source';

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

/** What reads a mode's slice for one caller: ShopScopedReader (or a spec's stand-in). */
export interface ModeReader extends ScopedToCaller {
  read<Q extends ModeQuery, X extends object, R extends { id: string }>(
    mode: Mode<Q, X, object>,
    source: Source<R>,
    query: Q,
  ): Promise<{ rows: R[] } & X>;
}

/**
 * One page of any endpoint: parse the query (and cursor) for the caller, read one slice through
 * the reader scoped to the caller (shop scope and SQL behind the wall), map the rows and let the
 * mode sign the cursor of the next call into its envelope. Framework-free, so the benchmark's raw
 * baseline runs exactly this too.
 */
export async function readPage<Q extends ModeQuery, X extends object, E extends object, R, T>(
  endpoint: PagedEndpoint<Q, X, E, R & { id: string }, T>,
  scoped: ModeReader,
  raw: RawQuery,
  cursors: CursorCodec,
): Promise<Page<T> & E> {
  const { caller } = scoped;
  const { mode, route } = endpoint;
  const request = parsePageRequest(
    raw,
    { declaration: endpoint.parameters, carried: mode.carried, check: mode.check },
    route,
    caller,
    cursors,
  );
  const query = mode.query(request);
  const slice = await scoped.read(mode, endpoint.source, query);
  const data = slice.rows.map((row) => endpoint.toRecord(row));
  const envelope = mode.envelope(query, slice, (filters, after) =>
    cursors.encode({
      resource: route,
      subject: caller.userId,
      ...filters,
      afterTime: after.time,
      afterId: after.id,
    }),
  );
  return { data, ...envelope };
}

/** The one pagination mechanism of every paginated endpoint, in every mode. */
@Injectable()
export class Paginator {
  constructor(
    private readonly cursors: CursorCodec,
    private readonly readers: ShopScopedReaders,
  ) {}

  read<Q extends ModeQuery, X extends object, E extends object, R extends { id: string }, T>(
    endpoint: PagedEndpoint<Q, X, E, R, T>,
    caller: CallerClaims,
    raw: RawQuery,
  ): Promise<Page<T> & E> {
    return readPage(endpoint, this.readers.for(caller), raw, this.cursors);
  }
}
