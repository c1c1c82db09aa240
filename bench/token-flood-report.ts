import type { Compared, ResultRow } from './result-row';

import type { TokenFloodResult } from './token-flood';

export type { TokenFloodResult };

const ms = (v: number) => `${Number.isFinite(v) ? v.toFixed(1) : '—'} ms`;
const perSecond = (v: number) => `${Number.isFinite(v) ? v.toFixed(1) : '—'}/s`;

/**
 * The token flood's rows: the payments page's p99 under the flood against its idle p99 (at most
 * 1.5x), and the flood's verified refusals a second against what the hashing slots can do.
 */
export function floodRows(flood: TokenFloodResult, compared: Compared): ResultRow[] {
  const answered = (status: string): number => flood.statuses[status] ?? 0;
  const verified = answered('401') + answered('200');
  const other = Object.entries(flood.statuses)
    .filter(([status]) => !['401', '200'].includes(status))
    .map(([status, n]) => `${n} × ${status}`);
  return [
    compared(
      `payments page p99 while 16 connections from distinct addresses flood the token endpoint vs idle (${flood.flooded.requests} probes)`,
      flood.flooded.p99,
      flood.idle.p99,
      ms,
      { atMost: 1.5 },
    ),
    compared(
      `token flood: verified refusals vs what ${flood.hashSlots} hashing slot(s) can do` +
        (other.length > 0 ? ` (also ${other.join(', ')})` : ''),
      verified / flood.seconds,
      flood.hashCapacity,
      perSecond,
      { atLeast: 0.8 },
    ),
  ];
}
