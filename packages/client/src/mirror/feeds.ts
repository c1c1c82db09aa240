import type { CursorResource } from '../resources.js';
import type { Json } from './jcs.js';
import type { MirrorRows } from './mirror-rows.js';
import type { Table } from './schema.js';

type ApiRecord = Record<string, Json>;

/** What a mirror reports as it goes (the CLI's progress line). */
export type MirrorEvent =
  | { type: 'page'; resource: string; records: number }
  | { type: 'day'; resource: string; shop: string; date: string; repaired: boolean }
  /** The first pass is done: a follow now waits for new records. */
  | { type: 'following' }
  /** Something the caller should know, e.g. a mirror file other users may read. */
  | { type: 'warning'; message: string };

export interface FeedScope {
  /** The feed's ShopCode (one shop mirrored), or undefined: the feed of every shop. */
  shopCode?: string;
  /** Records of other shops are skipped (several shops mirrored through one feed). */
  shops?: Set<string>;
}

/**
 * One resource's feed into the mirror: each page and its next cursor in one transaction.
 * Ids written are also told to the day re-reads running meanwhile (`watchers`), so a re-read
 * that started before the row was committed does not take it away again.
 */
export class FeedSync {
  readonly watchers = new Set<Set<string>>();
  /** Its cursor's key in `mirror_state`. */
  readonly cursorKey: string;

  constructor(
    private readonly resource: CursorResource<ApiRecord>,
    readonly table: Table,
    private readonly rows: MirrorRows,
    private readonly scope: FeedScope,
    private readonly emit: (event: MirrorEvent) => void,
  ) {
    this.cursorKey = `cursor:${table.resource}:${scope.shopCode ?? '*'}`;
  }

  /**
   * Reads the feed from the stored cursor until caught up; with `wait`, the first call may be
   * held that many seconds for a record to arrive. Returns the records written.
   */
  async catchUp(options: { wait?: number; limit?: number; signal?: AbortSignal } = {}) {
    const poll = this.resource.feed({
      cursor: await this.rows.state(this.cursorKey),
      shopCode: this.scope.shopCode,
      limit: options.limit,
      wait: options.wait,
      signal: options.signal,
    });
    let written = 0;
    for await (const page of poll.pages()) {
      const shops = this.scope.shops;
      const records = shops ? page.data.filter((r) => shops.has(r.shopCode as string)) : page.data;
      await this.rows.writePage(this.table, records, this.cursorKey, page.nextCursor);
      for (const watcher of this.watchers) for (const r of records) watcher.add(r.id as string);
      written += records.length;
      this.emit({ type: 'page', resource: this.table.resource, records: records.length });
    }
    return written;
  }
}
