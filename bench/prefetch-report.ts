import { prefetchFigures, type PrefetchResults } from './prefetch-walk';
import { LINK_BYTES_PER_SECOND } from './throttled-link';
import type { Compared, ResultRow } from './result-row';

const ms = (v: number) => `${Number.isFinite(v) ? v.toFixed(1) : '—'} ms`;

/**
 * The client's walk of a year over 50 Mbit/s with gzip, per page, against its floor: the slower
 * of the page's database time and the wire time of its compressed bytes (at most 1.5x with
 * prefetch), and for comparison the same walk with the client at idle priority in a process of its
 * own (decision 29.18) and without prefetch.
 */
export function prefetchRows(r: PrefetchResults, compared: Compared): ResultRow[] {
  const f = prefetchFigures(r);
  const floor = `floor per page: max(database ${ms(f.dbMs)}, wire ${ms(f.wireMs)} on average)`;
  return [
    compared(
      `client walk over 50 Mbit/s, gzip, prefetch on, per page vs ${floor}`,
      f.withPrefetch,
      f.floorMs,
      ms,
      { atMost: 1.5 },
    ),
    compared(
      'the same walk, the client at idle priority in a process of its own, per page vs the floor',
      f.withPrefetchIdle,
      f.floorMs,
      ms,
    ),
    compared(
      'client walk over 50 Mbit/s, gzip, prefetch off, per page vs the floor',
      f.without,
      f.floorMs,
      ms,
    ),
    compared('the same walk: prefetch on vs off, per page', f.withPrefetch, f.without, ms),
    compared(
      "prefetch on, the client at idle priority: a page's wait for its headers (the service, the link's first bytes; each round's median, averaged) vs its database time (median)",
      f.idleHeadersMs,
      f.dbMedianMs,
      ms,
    ),
    compared(
      "prefetch on, the client in the bench process: a page's wait for its headers vs its database time (median)",
      f.headersMs,
      f.dbMedianMs,
      ms,
    ),
    ...exportRows(r, compared),
  ];
}

const seconds = (v: number) => `${v.toFixed(1)} s`;

/**
 * `pos-read export sales` of every shop's quarter over the same link at each concurrency, against
 * --concurrency 1 (one walk of every shop) and against the wire time of its own gzip bytes.
 */
function exportRows(r: PrefetchResults, compared: Compared): ResultRow[] {
  const single = r.exports.find((run) => run.concurrency === 1);
  if (!single) return [];
  const period = `${r.exportPeriod.from.slice(0, 10)} to ${r.exportPeriod.to.slice(0, 10)}`;
  return r.exports.flatMap((run) => {
    const wire = run.wireBytes / LINK_BYTES_PER_SECOND;
    const what = `pos-read export sales, every shop, ${period}, --concurrency ${run.concurrency}`;
    return [
      compared(
        `${what} (${run.records} records) vs --concurrency 1`,
        run.seconds,
        single.seconds,
        seconds,
      ),
      compared(`${what} vs the wire time of its gzip bytes`, run.seconds, wire, seconds),
    ];
  });
}
