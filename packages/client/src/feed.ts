import { openerOf, type PagingOptions, type Resume } from './pagination.js';
import { prefetchedPages } from './prefetch.js';

/** One page of a feed, with the cursor that fetched it (null: the first page). */
export interface FeedPage<T> {
  data: T[];
  /** Where the feed resumes; never null. */
  nextCursor: string;
  /** True: nothing more to read now. */
  caughtUp: boolean;
  cursor: string | null;
}

export type FetchFeedPage<T> = (
  cursor: string | null,
) => Promise<{ data: T[]; nextCursor: string; caughtUp: boolean }>;

/**
 * One poll of an ingestion-ordered feed (`/sales/feed`, ...): pages in arrival order until the
 * service says `caughtUp`. Iterate it with `for await (const record of poll)`, or take whole
 * pages with `poll.pages()`. With `resume`, it starts at the stored cursor and stores each
 * `nextCursor` once the consumer has taken its page (never null: a caught-up feed resumes from
 * it), so the next poll, in a minute or a day, goes on where this one stopped, and a crash
 * repeats at most the page being processed. After the poll, `cursor` is where it stopped.
 */
export class FeedPoll<T> implements AsyncIterable<T> {
  /** The cursor after the last page taken: pass it (or keep the resume store) to poll again. */
  cursor: string | null;

  constructor(
    private readonly fetchPage: FetchFeedPage<T>,
    start: string | null = null,
    private readonly resume?: Resume,
    private readonly paging: PagingOptions<Awaited<ReturnType<FetchFeedPage<T>>>> = {},
  ) {
    this.cursor = start;
  }

  /** Pages until caught up, the next one asked for ahead as CursorList does. */
  async *pages(): AsyncGenerator<FeedPage<T>, void, undefined> {
    const cursor = this.resume
      ? ((await this.resume.store.load(this.resume.key)) ?? this.cursor)
      : this.cursor;
    const pages = prefetchedPages(
      this.paging.open ?? openerOf(this.fetchPage),
      cursor,
      (page) => (page.caughtUp ? null : page.nextCursor),
      { signal: this.paging.signal, prefetch: this.paging.prefetch ?? true },
    );
    for await (const { page, cursor: at } of pages) {
      yield { ...page, cursor: at };
      await this.resume?.store.save(this.resume.key, page.nextCursor);
      this.cursor = page.nextCursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }
}
