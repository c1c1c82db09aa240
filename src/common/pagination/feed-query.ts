import { MAX_FEED_WAIT_SECONDS, MAX_PAGE_LIMIT } from '../../config/limits';
import type { CallerClaims } from '../caller-claims';
import type { CursorCodec } from './cursor-codec';
import { FROM_EXAMPLE, localDateTimeParameter } from './filter-parameters';
import { checkCursor, PAGE_QUERY } from './page-query';
import { parameterError, QueryParameter, readQuery } from './query-declaration';
import type { RawQuery } from './query-parameters';

/**
 * What an arrival read needs of a table: its name, the select list over the table aliased `x`,
 * and the column set when a row reached the back office, where the table has one.
 */
export interface ArrivalSource {
  table: string;
  select: string;
  /** The sales' created_at; undefined for a table that records no arrival time. */
  arrivedAt?: string;
}

/** Where a feed page starts and what it may hold. */
export interface FeedQuery {
  shopCode: string | null;
  /** Only rows that arrived at or after this (stored form); null: from the first row. */
  since: string | null;
  /** The id after which the page starts (decimal); null: the beginning. */
  afterId: string | null;
  limit: number;
  /** Seconds to hold the request when it would answer nothing (0: answer at once). */
  wait: number;
}

/** What a read after a wake found: nothing yet (first), nothing, or a page held by an insert in flight. */
export type WakeOutcome = 'first' | 'nothing' | 'in-flight';

/** A request held by Wait (ShopScopedReader.awaitArrivals). */
export interface FeedWait {
  /**
   * Up to `ms`: true when a row may be readable (read again), false to answer as read. `after`:
   * what the read after the last wake found (`first`: there was none yet).
   */
  next(ms: number, after: WakeOutcome): Promise<boolean>;
  /** Always called once the request answers. */
  end(): void;
}

/** One page of a feed, in id order, and where the next one starts. */
export interface FeedSlice<R> {
  rows: R[];
  /** The id to resume after: the last row's, or the query's own position when none was served. */
  position: string;
  /** Nothing more can be served now: the end of what is committed, or an insert in flight. */
  caughtUp: boolean;
  /** True when an insert in flight stopped the page (it is served once it commits). */
  inFlight?: boolean;
}

const FEED_CURSOR: QueryParameter<string, false> = {
  ...PAGE_QUERY.Cursor,
  description:
    'To continue the feed: the `nextCursor` of the previous page, passed unchanged (opaque, ' +
    'signed, bound to the resource, the caller and the filters). Store it after each page and ' +
    'send it on the next poll, in a minute or a day. Empty or omitted: the first page. With a ' +
    'cursor the other filters may be left out; given again, they must match (else 400).',
};

const WAIT: QueryParameter<number, false> = {
  required: false,
  shape: 'a whole number of seconds',
  description:
    `Seconds, 0 to ${MAX_FEED_WAIT_SECONDS}: when nothing can be read now, hold the request ` +
    "until a record of the feed's shops arrives (answered within about a second of its " +
    'commit) or the time runs out, then answer the usual page (empty, `caughtUp: true`, when ' +
    'nothing came). Not part of the cursor: each call may wait or not. Omitted or 0: answer at ' +
    'once. Past the per-user or per-instance number of waiting requests: 429 or 503 with ' +
    'Retry-After.',
  schema: { type: 'integer', minimum: 0, maximum: MAX_FEED_WAIT_SECONDS, default: 0 },
  example: 1,
  parse: (value, name) => {
    if (!/^\d{1,2}$/.test(value) || Number(value) > MAX_FEED_WAIT_SECONDS) {
      throw parameterError(
        name,
        `must be a whole number of seconds from 0 to ${MAX_FEED_WAIT_SECONDS}`,
      );
    }
    return Number(value);
  },
};

/** Payments and cash movements record no arrival time: their feeds take no From. */
export const FEED_QUERY = {
  ShopCode: PAGE_QUERY.ShopCode,
  Cursor: FEED_CURSOR,
  Limit: PAGE_QUERY.Limit,
  Wait: WAIT,
};

/** The sales feed: From selects the sales that reached the back office since then. */
export const ARRIVED_FEED_QUERY = {
  ShopCode: PAGE_QUERY.ShopCode,
  From: {
    ...localDateTimeParameter({ required: false, role: '', example: FROM_EXAMPLE }),
    description:
      'Only sales that reached the back office at or after this moment (`created_at`, the ' +
      "back-office database's clock, not the shop's), for the first call; the cursor carries " +
      'it on. Omitted: from the first sale. ISO 8601 without zone designator ' +
      '(`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight).',
  },
  Cursor: FEED_CURSOR,
  Limit: PAGE_QUERY.Limit,
  Wait: WAIT,
};

export type FeedDeclaration = typeof FEED_QUERY | typeof ARRIVED_FEED_QUERY;

/**
 * The feed page a request asks for. A cursor carries the ShopCode and From of the first call; a
 * cursor of another resource (a list cursor included) or another caller is refused.
 */
export function parseFeedQuery(
  raw: RawQuery,
  declaration: FeedDeclaration,
  resource: string,
  caller: CallerClaims,
  cursors: CursorCodec,
): FeedQuery {
  const q: { ShopCode?: string; From?: string; Cursor?: string; Limit?: number; Wait?: number } =
    readQuery(raw, declaration);
  const [limit, wait] = [q.Limit ?? MAX_PAGE_LIMIT, q.Wait ?? 0];
  const given = { ShopCode: q.ShopCode, From: q.From };
  if (!q.Cursor) {
    return { shopCode: q.ShopCode ?? null, since: q.From ?? null, afterId: null, limit, wait };
  }
  const state = cursors.decode(q.Cursor);
  checkCursor(state, resource, caller, given, { ShopCode: state.shopCode, From: state.from });
  return { shopCode: state.shopCode, since: state.from, afterId: state.afterId, limit, wait };
}
