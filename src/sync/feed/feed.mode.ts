import { FROM_EXAMPLE, localDateTimeParameter } from '../../common/query/filter-parameters';
import { PAGE_QUERY } from '../paging/page-query';
import { parameterError, type QueryParameter } from '../../common/query/query-declaration';
import { MAX_FEED_WAIT_SECONDS, MAX_PAGE_LIMIT, MAX_PARAMETER_LENGTH } from '../../config/limits';
import { FEED_READ, type FeedQuery, type FeedSlice } from '../../wall/feed-read';
import type { Mode } from '../paging/mode';

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

/** The feed of a source without `arrivedAt` (the table records no arrival time) takes no From. */
const FEED_QUERY = {
  ShopCode: PAGE_QUERY.ShopCode,
  Cursor: FEED_CURSOR,
  Limit: PAGE_QUERY.Limit,
  Wait: WAIT,
};

/** The sales feed: From selects the sales that reached the back office since then. */
const ARRIVED_FEED_QUERY = {
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

/**
 * The feed mode (GET /sales/feed, ...): every record in the order it reached the back office
 * (its id), `{ data, nextCursor, caughtUp }` with nextCursor never null. Its read is the wall's
 * FEED_READ (wall/feed-read.ts), from the primary only. A source with `arrivedAt` takes From (arrived
 * since); the others take no From. A feed cursor carries ShopCode and From; a list cursor is not
 * a feed cursor (the feed's cursors are named `<resource>/feed`).
 */
export const FEED: Mode<
  FeedQuery,
  Omit<FeedSlice<unknown>, 'rows'>,
  { nextCursor: string; caughtUp: boolean }
> = {
  route: 'feed',
  parameters: (source) => (source.arrivedAt ? ARRIVED_FEED_QUERY : FEED_QUERY),
  carried: ['ShopCode', 'From'],
  query: ({ filters, after, limit, wait }) => ({
    shopCode: filters.shopCode,
    since: filters.from,
    afterId: after?.id ?? null,
    limit,
    wait,
  }),
  read: FEED_READ.read,
  // Wait: a read that found nothing yet is held until its shops move (paginator.ts, arrivals/).
  hold: (query, slice) =>
    query.wait > 0 && slice.rows.length === 0 && slice.caughtUp
      ? { seconds: query.wait, position: slice.position, inFlight: slice.inFlight === true }
      : null,
  envelope: (query, slice, cursor) => ({
    // A feed's position is an id alone.
    nextCursor: cursor(
      { shopCode: query.shopCode, from: query.since, to: null },
      { time: '', id: slice.position },
    ),
    caughtUp: slice.caughtUp,
  }),
  docs: {
    note:
      `\n\nPages hold up to ${MAX_PAGE_LIMIT} records (Limit), in the order they reached the ` +
      'back office (their id), whatever their business date-time: a register that uploads a day ' +
      'late still shows up here. Every committed record is delivered once, none is skipped. ' +
      'Store `nextCursor` after each page; read on while `caughtUp` is false, then poll again ' +
      'later with the stored cursor. A change made later to a record already delivered (a sale ' +
      'voided) does not bring it back: see docs/sync.md. A shop outside the token claims gives ' +
      'an empty page, never an error.',
    ok: 'A page of records in arrival order, the cursor to resume from and whether the feed is caught up.',
    data: 'The records of the page in arrival order',
    properties: {
      nextCursor: {
        type: String,
        maxLength: MAX_PARAMETER_LENGTH,
        description:
          'Opaque cursor of where the feed resumes: store it, and pass it as Cursor, unchanged, on ' +
          'the next call. Never null: a caught-up feed resumes from it when new records arrive.',
      },
      caughtUp: {
        type: Boolean,
        description:
          'true: nothing more can be read now (the end of what is committed, or a record still ' +
          'being written); poll again later with nextCursor. false: read the next page now.',
      },
    },
    example: (cursor) => ({ nextCursor: cursor, caughtUp: true }),
  },
};
