import type { Source } from '../catalogue/source';
import type { ShopScope } from './shop-scope';
import { type FeedQuery, type FeedSlice, readArrivals } from './sql/arrival-reader';
import { readAttached } from './sql/attached-reader';
import type { ReadSource, ScopedRead } from './wall';

export type { FeedQuery, FeedSlice } from './sql/arrival-reader';

/**
 * The feed's read (sync/feed/feed.mode.ts): the rows that arrived after a position, in id order
 * (sql/arrival-reader.ts), with what the source attaches; the committed read, its re-read and the
 * attached rows on one connection of the primary (a replica behind it would hide committed rows
 * the feed must not step over).
 */
export const FEED_READ: ScopedRead<FeedQuery, Omit<FeedSlice<unknown>, 'rows'>> = {
  read: <R extends { id: string }>(
    source: Source<R>,
    scope: ShopScope,
    query: FeedQuery,
    reads: ReadSource,
  ) =>
    reads.withPrimary(async (db) => {
      const slice = await readArrivals(source, scope, query, db);
      return { ...slice, rows: await readAttached(source, slice.rows, db) };
    }),
};
