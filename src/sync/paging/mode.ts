import type { ModeDocs } from './page-docs';
import type {
  CarriedFilter,
  PageFilters,
  PageParameters,
  PagePosition,
  PageRequest,
} from './page-query';
import type { QueryDeclaration } from '../../common/query/query-declaration';
import type { ScopedQuery, ScopedRead } from '../../wall/wall';
import type { Source } from '../../catalogue/source';

/** A read a request waits on (Mode.hold). */
export interface Hold {
  seconds: number;
  position: string;
  inFlight: boolean;
}

/** What every mode's query holds: the requested shop (narrowed by the wall) and the page size. */
export type ModeQuery = ScopedQuery;

/**
 * A pagination mode: how an endpoint of a resource pages through its source. The list (a period,
 * in business time), the feed (arrival order) and any later mode (the digest) are each one value
 * of this type, in one file of modes/; the paginator, the wall, the endpoint decorator and the
 * page DTO take the mode as data and are written once.
 *
 * - `Q`: the query the read takes (built from the request by `query`);
 * - `X`: what a read answers besides its rows (the list's next position, the feed's position
 *   and caughtUp);
 * - `E`: the page's envelope besides `data` (`nextCursor`, `caughtUp`).
 */
export interface Mode<Q extends ModeQuery, X extends object, E extends object> extends ScopedRead<
  Q,
  X
> {
  /** The route below the resource's (`feed`: GET /sales/feed), and the cursors' name; null: the resource's own. */
  route: string | null;
  /** The query parameters of an endpoint over `source`: the parser's and the document's. */
  parameters(source: Source<unknown>): QueryDeclaration;
  /** The filters its cursors carry; given again with a cursor, they must match. */
  carried: readonly CarriedFilter[];
  /** Checks across parameters, before any cursor is read (the list's From before To). */
  check?(parameters: PageParameters): void;
  /** The query of a request (filters, position, limit). */
  query(request: PageRequest): Q;
  /**
   * Whether a request may wait before answering this slice (the feed's Wait: an empty, caught-up
   * page): how long, the position to wake after, and whether an insert in flight held it.
   */
  hold?(query: Q, slice: { rows: unknown[] } & X): Hold | null;
  /** The envelope of a page: `cursor` signs the filters and position of the next call. */
  envelope(query: Q, slice: X, cursor: (filters: PageFilters, after: PagePosition) => string): E;
  /** What the OpenAPI document says of its operations and pages. */
  docs: ModeDocs;
}
