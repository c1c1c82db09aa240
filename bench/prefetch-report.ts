import { prefetchFigures, type PrefetchResults } from './prefetch-walk';
import type { Compared, ResultRow } from './result-row';

const ms = (v: number) => `${Number.isFinite(v) ? v.toFixed(1) : '—'} ms`;

/**
 * The client's walk of a year over 50 Mbit/s with gzip, per page, against its floor: the slower
 * of the page's database time and the wire time of its compressed bytes (at most 1.5x with
 * prefetch), and without prefetch for comparison.
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
      {
        atMost: 1.5,
      },
    ),
    compared(
      'client walk over 50 Mbit/s, gzip, prefetch off, per page vs the floor',
      f.without,
      f.floorMs,
      ms,
    ),
    compared('the same walk: prefetch on vs off, per page', f.withPrefetch, f.without, ms),
  ];
}
