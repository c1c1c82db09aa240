import type { CompressionResults } from './compression';
import { dayCloseRows, type DayCloseRun } from './day-close';
import { fairShareRows, type FairShareRun } from './fair-share';
import { openDrawerRows, type OpenDrawerRun } from './open-drawer';
import type { Measured } from './load';
import type { ResultRow } from './result-row';
import { pageRows } from './page-rows';
import { prefetchRows } from './prefetch-report';
import type { PrefetchResults } from './prefetch-walk';
import type { SurgeRun } from './sign-in-surge';
import type { PageResult, ReportRun, TokenSaturation, WalkComparison } from './scenarios';
import { floodRows, type TokenFloodResult } from './token-flood-report';

/** What a run measured; a group left out by `--only` is missing. */
export interface Results {
  pages?: PageResult[];
  walks?: WalkComparison;
  token?: Measured;
  saturation?: TokenSaturation;
  flood?: TokenFloodResult;
  reports?: ReportRun[];
  dayClose?: DayCloseRun;
  fairShare?: FairShareRun;
  openDrawer?: OpenDrawerRun;
  rssPeakMb: number;
  rssByPhase: ReadonlyMap<string, number>;
  baselineRssPeakMb: number;
  compression?: CompressionResults;
  prefetch?: PrefetchResults;
  surge?: SurgeRun[];
}

const fixed = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
const ms = (v: number) => `${fixed(v, 1)} ms`;
const rps = (v: number) => `${fixed(v, 1)} req/s`;

export function compared(
  what: string,
  service: number,
  reference: number,
  show: (v: number) => string,
  target?: { atLeast?: number; atMost?: number },
): ResultRow {
  const ratio = service / reference;
  let verdict: ResultRow['verdict'] = '';
  let text = '';
  if (target?.atLeast !== undefined) {
    text = `≥ ${target.atLeast}x`;
    verdict = ratio >= target.atLeast ? 'pass' : 'FAIL';
  } else if (target?.atMost !== undefined) {
    text = `≤ ${target.atMost}x`;
    verdict = ratio <= target.atMost ? 'pass' : 'FAIL';
  }
  return {
    what,
    service: show(service),
    reference: show(reference),
    ratio: `${fixed(ratio, 2)}x`,
    target: text,
    verdict,
  };
}

const walkRate = (walks: { records: number; seconds: number }[]) =>
  walks.reduce((s, w) => s + w.records, 0) / walks.reduce((s, w) => s + w.seconds, 0);

/** The rows of the table; each target is a ratio of two numbers measured in the same run. */
export function resultRows(r: Results): ResultRow[] {
  const rows: ResultRow[] = r.pages ? pageRows(r.pages, compared) : [];
  if (r.walks) {
    rows.push(
      compared(
        'full-year walk of one shop (records/s)',
        walkRate(r.walks.service),
        walkRate(r.walks.baseline),
        (v) => `${Math.round(v)} rec/s`,
        { atLeast: 0.7 },
      ),
    );
  }
  if (r.prefetch) rows.push(...prefetchRows(r.prefetch, compared));
  if (r.token) {
    rows.push({
      what: `token endpoint (argon2id), ${r.token.requests} requests`,
      service: rps(r.token.rps),
      reference: `p50 ${ms(r.token.p50)}`,
      ratio: '',
      target: 'expensive by design',
      verdict: '',
    });
  }
  if (r.saturation) {
    rows.push(
      compared(
        `data p99 with token endpoint saturated (${fixed(r.saturation.token.rps)} tokens/s) vs idle`,
        r.saturation.loaded.p99,
        r.saturation.idle.p99,
        ms,
        { atMost: 2 },
      ),
    );
  }
  r.surge?.forEach((run, i) =>
    rows.push(
      compared(
        `data p99 while 16 connections sign in with the right password vs idle, run ${i + 1} ` +
          `(${fixed(run.tokensPerSecond)} tokens/s, pool peak ${run.poolInUsePeak} in use, ${run.poolWaitingPeak} waiting; ` +
          `p50 ${fixed(run.idle.p50)} → ${fixed(run.surge.p50)} ms)`,
        run.surge.p99,
        run.idle.p99,
        ms,
        { atMost: 1.5 },
      ),
    ),
  );
  if (r.flood) rows.push(...floodRows(r.flood, compared));
  if (r.dayClose) rows.push(...dayCloseRows(r.dayClose, compared));
  if (r.fairShare) rows.push(...fairShareRows(r.fairShare, compared));
  if (r.openDrawer) rows.push(...openDrawerRows(r.openDrawer, compared));
  for (const report of r.reports ?? []) {
    rows.push({
      what:
        `report ${report.format}, 31 days of every shop: ${report.rows.toLocaleString('en-US')} ` +
        `lines, ${fixed(report.bytes / 1e6)} MB streamed in ${fixed(report.seconds)} s`,
      service: `${fixed(report.rssPeakMb, 0)} MB`,
      reference: `${Math.round(report.rows / report.seconds)} lines/s`,
      ratio: '',
      target: '< 250 MB',
      verdict: report.rssPeakMb < 250 ? 'pass' : 'FAIL',
    });
  }
  rows.push({
    what: 'service resident memory, peak over every scenario',
    service: `${fixed(r.rssPeakMb, 0)} MB`,
    reference: `baseline ${fixed(r.baselineRssPeakMb, 0)} MB`,
    ratio: '',
    target: '< 250 MB',
    verdict: r.rssPeakMb < 250 ? 'pass' : 'FAIL',
  });
  return rows;
}

const HEADERS = ['measure', 'service', 'compared with', 'ratio', 'target', ''] as const;

const cells = (row: ResultRow) => [
  row.what,
  row.service,
  row.reference,
  row.ratio,
  row.target,
  row.verdict,
];

/** The table for a terminal. */
export function textTable(rows: ResultRow[]): string {
  const all = [HEADERS as readonly string[], ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '))
    .join('\n');
}

/** The table in Markdown. */
export function markdownTable(rows: ResultRow[]): string {
  const line = (c: readonly string[]) => `| ${c.join(' | ')} |`;
  return [
    line(HEADERS),
    line(['---', '---:', '---:', '---:', '---', '---']),
    ...rows.map((r) => line(cells(r))),
  ].join('\n');
}
