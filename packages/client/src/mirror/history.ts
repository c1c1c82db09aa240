import type { BulkBatch } from '../bulk.js';
import type { CursorResource } from '../resources.js';
import type { MirrorEvent } from './feeds.js';
import type { Json } from './jcs.js';
import type { MirrorRows } from './mirror-rows.js';
import { addDays } from './reconcile.js';
import type { Table } from './schema.js';

type ApiRecord = Record<string, Json>;

/** The longest period of one bulk read (the service's MAX_BULK_DAYS). */
export const BULK_MAX_DAYS = 1_096;

/** `YYYY-MM-DD` or a date-time without zone, as milliseconds (read as if UTC). */
const msOf = (at: string) => Date.parse(`${at.length === 10 ? `${at}T00:00:00` : at}Z`);
const textOf = (ms: number) => new Date(ms).toISOString().slice(0, -1);

/** [from, to) (shop-local date-times) cut into the periods of one bulk read each. */
export function bulkPeriods(from: string, to: string): Array<{ from: string; to: string }> {
  const periods: Array<{ from: string; to: string }> = [];
  const end = msOf(to);
  for (let at = msOf(from); at < end; at += BULK_MAX_DAYS * 86_400_000) {
    const next = at + BULK_MAX_DAYS * 86_400_000;
    periods.push({ from: textOf(at), to: next < end ? textOf(next) : to });
  }
  return periods;
}

/**
 * Records written a transaction at most: a few of the stream's batches of 1,000, so a load
 * commits (and a crash loses) little, and memory holds no more than this.
 */
export const HISTORY_RECORDS_PER_TRANSACTION = 5_000;

/**
 * Where a table's history load of one shop stands (`mirror_state` `history:<resource>:<shop>`):
 * looking for the first record at or after `after` (null: the shop's first record), reading the
 * period [from, to) after `cursor` (null: from its start), or done.
 */
type HistoryState =
  { after: string | null } | { from: string; to: string; cursor: string | null } | { done: true };

export const historyKey = (table: Table, shop: string): string =>
  `history:${table.resource}:${shop}`;

export interface HistoryLoad {
  table: Table;
  resource: Pick<CursorResource<ApiRecord>, 'list' | 'bulk'>;
  shop: string;
  /** A table with a feed: the feed's cursor key, set from the first start line (the hand-over). */
  feedKey?: string;
  /** A `mirror_state` key set to `true` in the transaction that ends the load. */
  doneKey?: string;
  signal?: AbortSignal;
  emit: (event: MirrorEvent) => void;
}

/** A rewound stream (a corrupted response, packages/client/src/bulk.ts): the load starts over. */
class StartOver extends Error {}

/**
 * A first copy of one table of one shop through the bulk read (docs/sync.md, "From the till to
 * your database"), instead of the feed from its beginning: every record the list has for the
 * shop, period after period of at most BULK_MAX_DAYS days, each starting at the next record
 * there is (a list call of one record finds it, so years without records cost nothing).
 *
 * - **Hand-over.** A table with a feed first reads an empty period, whose start line gives the
 *   feed's cursor before any read of history; it is stored as the feed's cursor in the same
 *   transaction as the load's state, so the feed, read after the load (or after a crash), brings
 *   every record committed since, late uploads included. A record both in the history and the
 *   feed is written twice, by id: the second wins, and it is the newer.
 * - **Crash safety.** Each transaction writes its records and the load's state (the period and
 *   the checkpoint after them): a load killed goes on from its last transaction.
 * - **A corrupted response** (its end line does not match, bulk.ts): a record of it may sit under
 *   a wrong id or day, so the shop's rows of the table are deleted and the load starts over, in
 *   one transaction.
 *
 * Returns the records written.
 */
export async function loadHistory(rows: MirrorRows, load: HistoryLoad): Promise<number> {
  const key = historyKey(load.table, load.shop);
  const saved = await rows.state(key);
  let state: HistoryState | undefined = saved ? (JSON.parse(saved) as HistoryState) : undefined;
  if (state && 'done' in state) return 0;
  if (!state) state = await handOver(rows, load, key);
  let written = 0;
  for (;;) {
    if ('done' in state) return written;
    if ('after' in state) {
      state = await nextPeriod(load, state.after);
      if ('done' in state) {
        const states: Array<[string, string]> = [[key, JSON.stringify(state)]];
        if (load.doneKey) states.push([load.doneKey, 'true']);
        await rows.writeHistory(load.table, load.shop, [], states);
        return written;
      }
      continue;
    }
    try {
      written += await readPeriod(rows, load, key, state);
      state = { after: state.to };
    } catch (error) {
      if (!(error instanceof StartOver)) throw error;
      state = { after: null };
      await rows.writeHistory(load.table, load.shop, [], [[key, JSON.stringify(state)]], true);
    }
  }
}

/** The hand-over: the feed's cursor before any read, stored with the load's first state. */
async function handOver(rows: MirrorRows, load: HistoryLoad, key: string): Promise<HistoryState> {
  const state: HistoryState = { after: null };
  const states: Array<[string, string]> = [[key, JSON.stringify(state)]];
  if (load.feedKey) {
    // An empty period: nothing is read but the start line, whose cursor is taken before it.
    const empty = '2000-01-01';
    const read = load.resource.bulk({
      shopCode: load.shop,
      from: empty,
      to: empty,
      signal: load.signal,
    });
    for await (const batch of read) void batch;
    const feedCursor = read.start?.feedCursor;
    if (!feedCursor) throw new Error(`GET ${load.table.resource}/bulk gave no feed cursor.`);
    states.push([load.feedKey, feedCursor]);
  }
  await rows.writeHistory(load.table, load.shop, [], states);
  return state;
}

/** The period that starts with the shop's first record at or after `after`, or done. */
async function nextPeriod(load: HistoryLoad, after: string | null): Promise<HistoryState> {
  const list = load.resource.list({
    shopCode: load.shop,
    from: after ?? undefined,
    limit: 1,
    prefetch: false,
    signal: load.signal,
  });
  for await (const page of list.pages()) {
    const first = page.data[0];
    if (!first) break;
    const from = (first[load.table.dayField] as string).slice(0, 10);
    return { from, to: addDays(from, BULK_MAX_DAYS), cursor: null };
  }
  return { done: true };
}

/** One period's stream, written a few batches a transaction with the checkpoint after them. */
async function readPeriod(
  rows: MirrorRows,
  load: HistoryLoad,
  key: string,
  period: { from: string; to: string; cursor: string | null },
): Promise<number> {
  const read = load.resource.bulk({
    shopCode: load.shop,
    from: period.from,
    to: period.to,
    cursor: period.cursor ?? undefined,
    signal: load.signal,
  });
  let pending: ApiRecord[] = [];
  let written = 0;
  const flush = async (cursor: string | null) => {
    const state: HistoryState =
      cursor === null ? { after: period.to } : { from: period.from, to: period.to, cursor };
    await rows.writeHistory(load.table, load.shop, pending, [[key, JSON.stringify(state)]]);
    written += pending.length;
    load.emit({ type: 'page', resource: load.table.resource, records: pending.length });
    pending = [];
  };
  for await (const batch of read as AsyncIterable<BulkBatch<ApiRecord>>) {
    if (batch.rewound) throw new StartOver();
    pending = pending.length === 0 ? batch.records : pending.concat(batch.records);
    if (batch.cursor === null || pending.length >= HISTORY_RECORDS_PER_TRANSACTION) {
      await flush(batch.cursor);
    }
  }
  return written;
}
