import type { PageResult } from './scenarios';
import type { Compared, ResultRow } from './result-row';

const fixed = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
const ms = (v: number) => `${fixed(v, 1)} ms`;

/**
 * The page scenarios' rows: throughput, the server's CPU per page (process.cpuUsage() over the
 * run ÷ the pages it answered, far steadier than req/s on a shared machine) and p99, service
 * against baseline, then the deep page's p50 against the first page's.
 */
export function pageRows(pages: readonly PageResult[], compared: Compared): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const p of pages) {
    const isSales = p.key === 'sales-first' || p.key === 'sales-deep';
    rows.push(
      compared(
        `${p.label}: throughput`,
        p.service.rps,
        p.baseline.rps,
        (v) => `${fixed(v, 1)} req/s`,
        isSales ? { atLeast: 0.8 } : undefined,
      ),
      compared(
        `${p.label}: server CPU per page`,
        p.service.cpuMsPerRequest,
        p.baseline.cpuMsPerRequest,
        (v) => `${fixed(v, 2)} ms`,
        { atMost: 1.0 },
      ),
      compared(
        `${p.label}: p99`,
        p.service.p99,
        p.baseline.p99,
        ms,
        isSales ? { atMost: 1.5 } : undefined,
      ),
    );
  }
  const first = pages.find((p) => p.key === 'sales-first');
  const deep = pages.find((p) => p.key === 'sales-deep');
  if (first && deep) {
    rows.push(
      compared(
        'deep sales page p50 vs first page p50 (service)',
        deep.service.p50,
        first.service.p50,
        ms,
        {
          atMost: 1.2,
        },
      ),
      compared(
        'deep sales page p50 vs first page p50 (baseline)',
        deep.baseline.p50,
        first.baseline.p50,
        ms,
      ),
    );
  }
  return rows;
}
