import { MAX_PAGE_LIMIT } from '../../config/limits';
import type { CallerClaims } from '../caller-claims';
import type { CursorCodec } from './cursor-codec';
import { FROM_EXAMPLE, localDateTimeParameter } from './filter-parameters';
import { checkCursor, PAGE_QUERY } from './page-query';
import { QueryParameter, readQuery } from './query-declaration';
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
}

/** One page of a feed, in id order, and where the next one starts. */
export interface FeedSlice<R> {
  rows: R[];
  /** The id to resume after: the last row's, or the query's own position when none was served. */
  position: string;
  /** Nothing more can be served now: the end of what is committed, or an insert in flight. */
  caughtUp: boolean;
}

const FEED_CURSOR: QueryParameter<string, false> = {
  ...PAGE_QUERY.Cursor,
  description:
    'To continue the feed: the `nextCursor` of the previous page, passed unchanged (opaque, ' +
    'signed, bound to the resource, the caller and the filters). Store it after each page and ' +
    'send it on the next poll, in a minute or a day. Empty or omitted: the first page. With a ' +
    'cursor the other filters may be left out; given again, they must match (else 400).',
};

/** Payments and cash movements record no arrival time: their feeds take no From. */
export const FEED_QUERY = {
  ShopCode: PAGE_QUERY.ShopCode,
  Cursor: FEED_CURSOR,
  Limit: PAGE_QUERY.Limit,
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
  const q: { ShopCode?: string; From?: string; Cursor?: string; Limit?: number } = readQuery(
    raw,
    declaration,
  );
  const limit = q.Limit ?? MAX_PAGE_LIMIT;
  const given = { ShopCode: q.ShopCode, From: q.From };
  if (!q.Cursor) {
    return { shopCode: q.ShopCode ?? null, since: q.From ?? null, afterId: null, limit };
  }
  const state = cursors.decode(q.Cursor);
  checkCursor(state, resource, caller, given, { ShopCode: state.shopCode, From: state.from });
  return { shopCode: state.shopCode, since: state.from, afterId: state.afterId, limit };
}
