import type { CursorResource } from '../resources.js';
import { digestFields } from './digest-versions.js';
import type { Json } from './jcs.js';
import { type DayKind, EMPTY_DAY_CHECKSUM, type MirrorRows } from './mirror-rows.js';
import type { FeedSync, MirrorEvent } from './feeds.js';

type ApiRecord = Record<string, Json>;

/** A day whose checksum differs between the server and the mirror. */
export interface DifferingDay {
  resource: string;
  shop: string;
  date: string;
  server: { count: number; checksum: string };
  mirror: { count: number; checksum: string };
}

export interface ReconcileResult {
  daysChecked: number;
  differing: DifferingDay[];
}

/** `YYYY-MM-DD` plus `days` (negative: before). */
export function addDays(date: string, days: number): string {
  const time = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(time).toISOString().slice(0, 10);
}

/**
 * Compares the server's digest of one shop's days with the checksums of the mirror's own rows
 * and, with `repair`, re-reads each differing day from the list and replaces it.
 */
export async function reconcile(
  resource: CursorResource<ApiRecord>,
  feed: FeedSync,
  rows: MirrorRows,
  query: {
    shop: string;
    from: string;
    to: string;
    repair: boolean;
    /** The digest version the mirror was built on: sent, and its fields hashed. */
    version: number;
    /** Days by calendar date (From/To) or by business date (BusinessDateFrom/To). */
    by?: DayKind;
    signal?: AbortSignal;
  },
  emit: (event: MirrorEvent) => void,
): Promise<ReconcileResult> {
  const { shop, from, to, signal } = query;
  const table = feed.table;
  const { version, by = 'calendar-date' } = query;
  const days = (start: string, end: string) =>
    by === 'business-date'
      ? { businessDateFrom: start, businessDateTo: end }
      : { from: start, to: end };
  const server = await resource.digest({ shopCode: shop, ...days(from, to), version, signal });
  const fields = digestFields(table.resource, version);
  const local = await rows.localDays(table, shop, from, to, fields, by);
  const differing: DifferingDay[] = [];
  for (const day of server) {
    const mine = local.get(day.date) ?? { count: 0, checksum: EMPTY_DAY_CHECKSUM };
    if (mine.checksum === day.checksum) continue;
    differing.push({
      resource: table.resource,
      shop,
      date: day.date,
      server: { count: day.count, checksum: day.checksum },
      mirror: mine,
    });
    if (query.repair) {
      const written = new Set<string>();
      feed.watchers.add(written);
      try {
        const list = resource.list({
          shopCode: shop,
          ...days(day.date, addDays(day.date, 1)),
          signal,
        });
        const records = await list.toArray();
        await rows.replaceDay(table, shop, day.date, records, written, by);
      } finally {
        feed.watchers.delete(written);
      }
    }
    emit({ type: 'day', resource: table.resource, shop, date: day.date, repaired: query.repair });
  }
  return { daysChecked: server.length, differing };
}
