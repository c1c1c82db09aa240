import type { ScopedToCaller } from '../caller-claims';
import type { CursorCodec } from './cursor-codec';
import {
  FeedDeclaration,
  FeedQuery,
  FeedSlice,
  FeedWait,
  parseFeedQuery,
  WakeOutcome,
} from './feed-query';
import type { RawQuery } from './query-parameters';

/**
 * What a resource contributes to its arrival feed: the name bound into the feed's cursors
 * (`sales/feed`: a list cursor is not a feed cursor), its parameters, how a reader scoped to the
 * caller reads one slice, and the record it returns (the list endpoint's).
 */
export interface FeedResource<S extends ScopedToCaller, R, T> {
  name: string;
  query: FeedDeclaration;
  read(scoped: S, query: FeedQuery): Promise<FeedSlice<R>>;
  /** Holds a request that read nothing after `position` (Wait), through the caller's reader. */
  wait(scoped: S, query: FeedQuery, position: string): FeedWait;
  toRecord(row: R): T;
}

/** The page envelope of the feeds. */
export interface FeedPage<T> {
  data: T[];
  /** Pass as Cursor on the next call; never null, even when caught up. */
  nextCursor: string;
  /** True: nothing more to read now, poll again later. False: read the next page now. */
  caughtUp: boolean;
}

/**
 * One page of a feed: parse the query (and cursor) for the caller, read one slice through the
 * reader scoped to the caller, map the rows and sign the cursor of where the feed resumes.
 */
export async function readFeedPage<S extends ScopedToCaller, R, T>(
  resource: FeedResource<S, R, T>,
  scoped: S,
  raw: RawQuery,
  cursors: CursorCodec,
): Promise<FeedPage<T>> {
  const { caller } = scoped;
  const query = parseFeedQuery(raw, resource.query, resource.name, caller, cursors);
  let slice = await resource.read(scoped, query);
  if (query.wait > 0 && slice.rows.length === 0 && slice.caughtUp) {
    slice = await waitForRows(resource, scoped, query, slice);
  }
  const nextCursor = cursors.encode({
    resource: resource.name,
    subject: caller.userId,
    shopCode: query.shopCode,
    from: query.since,
    to: null,
    // A feed's position is an id alone.
    afterTime: '',
    afterId: slice.position,
  });
  return {
    data: slice.rows.map((row) => resource.toRecord(row)),
    nextCursor,
    caughtUp: slice.caughtUp,
  };
}

/**
 * Wait: the read found nothing, so hold the request until a row of its shops may be readable
 * (then read again, from the same position: nothing skipped, nothing twice) or until Wait runs
 * out or the instance shuts down (then answer what was read: an empty page, caught up).
 */
async function waitForRows<S extends ScopedToCaller, R, T>(
  resource: FeedResource<S, R, T>,
  scoped: S,
  query: FeedQuery,
  empty: FeedSlice<R>,
): Promise<FeedSlice<R>> {
  const deadline = Date.now() + query.wait * 1000;
  const wait = resource.wait(scoped, query, empty.position);
  try {
    let after: WakeOutcome = 'first';
    while (await wait.next(deadline - Date.now(), after)) {
      const slice = await resource.read(scoped, query);
      if (slice.rows.length > 0 || !slice.caughtUp) return slice;
      after = slice.inFlight ? 'in-flight' : 'nothing';
    }
    return empty;
  } finally {
    wait.end();
  }
}
