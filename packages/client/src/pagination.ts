import type { CursorStore } from './cursor-store.js';
import type { Page } from './types.js';

export type FetchPage<T> = (
  cursor: string | null,
) => Promise<{ data: T[]; nextCursor: string | null }>;

export interface Resume {
  store: CursorStore;
  /** Name of this walk in the store (one per query you sync). */
  key: string;
}

/**
 * The records of a cursor endpoint, following `nextCursor` until it is null. Iterate it with
 * `for await (const record of list)`, or take whole pages with `list.pages()`. Pages are fetched
 * one at a time, as the consumer asks for them. With `resume`, the walk starts at the stored
 * cursor and stores the next one once the consumer has taken a page, so after a crash it
 * repeats at most the page being processed.
 */
export class CursorList<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly start: string | null = null,
    private readonly resume?: Resume,
  ) {}

  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let cursor = this.resume
      ? ((await this.resume.store.load(this.resume.key)) ?? this.start)
      : this.start;
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield { data: page.data, nextCursor: page.nextCursor, cursor };
      await this.resume?.store.save(this.resume.key, page.nextCursor);
      if (page.nextCursor === null) return;
      cursor = page.nextCursor;
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
