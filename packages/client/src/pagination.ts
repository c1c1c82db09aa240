import type { CursorStore } from './cursor-store.js';
import { type OpenPage, prefetchedPages } from './prefetch.js';
import type { Page } from './types.js';

export type FetchPage<T> = (
  cursor: string | null,
) => Promise<{ data: T[]; nextCursor: string | null }>;

/** How the pages are asked for (the client's resources set it; see prefetchedPages). */
export interface PagingOptions<P> {
  /** Asks for a page and resolves at its headers, so its Link header is read before the body. */
  open?: OpenPage<P>;
  /** Ask for the next page while the consumer works on this one (default true). */
  prefetch?: boolean;
  signal?: AbortSignal;
}

/** The page opener of a plain FetchPage: its next cursor is known once its body is in. */
export function openerOf<P>(fetchPage: (cursor: string | null) => Promise<P>): OpenPage<P> {
  return async (cursor) => {
    const page = await fetchPage(cursor);
    return { linkCursor: null, body: () => Promise.resolve(page) };
  };
}

export interface Resume {
  store: CursorStore;
  /** Name of this walk in the store (one per query you sync). */
  key: string;
}

/**
 * The records of a cursor endpoint, following `nextCursor` until it is null. Iterate it with
 * `for await (const record of list)`, or take whole pages with `list.pages()`. While the
 * consumer works on a page, the next one is already asked for (one request ahead at most, from
 * the answer's Link header as soon as it arrives; aborted when the consumer stops early);
 * `prefetch: false` asks for each page only when the consumer wants it. With `resume`, the walk
 * starts at the stored cursor and stores the next one once the consumer has taken a page, so
 * after a crash it repeats at most the page being processed.
 */
export class CursorList<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly start: string | null = null,
    private readonly resume?: Resume,
    private readonly paging: PagingOptions<{ data: T[]; nextCursor: string | null }> = {},
  ) {}

  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const cursor = this.resume
      ? ((await this.resume.store.load(this.resume.key)) ?? this.start)
      : this.start;
    const pages = prefetchedPages(
      this.paging.open ?? openerOf(this.fetchPage),
      cursor,
      (page) => page.nextCursor,
      { signal: this.paging.signal, prefetch: this.paging.prefetch ?? true },
    );
    for await (const { page, cursor: at } of pages) {
      yield { data: page.data, nextCursor: page.nextCursor, cursor: at };
      await this.resume?.store.save(this.resume.key, page.nextCursor);
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every record in memory: for small periods only. */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const record of this) all.push(record);
    return all;
  }
}
