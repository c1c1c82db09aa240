import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Dataset } from './bench-dataset';
import { compressionMarkdown } from './compression-report';
import type { BenchOptions } from './bench-options';
import type { CpuUse, Machine } from './machine';
import { REPO_ROOT } from './processes';
import { markdownTable, type Results } from './report';
import type { ResultRow } from './result-row';
import { PROBE } from './scenarios';

const PERFORMANCE_DOC = path.join(REPO_ROOT, 'docs', 'performance.md');
const START = '<!-- bench:results:start (written by npm run bench; edit outside these markers) -->';
const END = '<!-- bench:results:end -->';

export interface RunRecord {
  options: BenchOptions;
  machine: Machine;
  dataset: Dataset;
  results: Results;
  rows: ResultRow[];
  cpuUse: CpuUse;
  loadBefore: readonly number[];
  loadAfter: readonly number[];
  /** NAME=value settings both servers ran with, and those the Dockerfile does not set. */
  runtime: string[];
  notInDockerfile: string[];
}

const n = (v: number) => v.toLocaleString('en-US');
const loads = (l: readonly number[]) => l.map((v) => v.toFixed(2)).join(', ');

/** The generated part of docs/performance.md: machine, command, dataset, results. */
function resultsSection(r: RunRecord): string {
  const { machine: m, dataset: d, options: o, results } = r;
  const walk = results.walks?.service[0];
  const phases = [...results.rssByPhase].map(([phase, mb]) => `${phase} ${mb.toFixed(0)} MB`);
  const busy = r.cpuUse.othersCores;
  return [
    START,
    '',
    `### Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Command: \`${o.command}\` against \`${o.databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}\`.`,
    '',
    `Service: \`node dist/src/main.js\` (APP_ENV=production, LOG_LEVEL=warn) with ` +
      `${r.runtime.length > 0 ? r.runtime.map((x) => `\`${x}\``).join(', ') : 'no runtime settings'}` +
      (r.notInDockerfile.length > 0
        ? `; **the Dockerfile does not set ${r.notInDockerfile.join(', ')} yet, so production differs**.`
        : '.'),
    '',
    '| machine | |',
    '|---|---|',
    `| CPU | ${m.cpus} × ${m.cpuModel} |`,
    `| memory | ${m.memoryGb.toFixed(1)} GB |`,
    `| system | ${m.os} |`,
    `| Node.js | ${m.node} |`,
    `| database | ${m.database}, InnoDB buffer pool ${m.bufferPoolMb.toFixed(0)} MB, same machine |`,
    `| load average (1, 5, 15 min) | before ${loads(r.loadBefore)}; after ${loads(r.loadAfter)} |`,
    `| CPU during the run | ${r.cpuUse.busyCores.toFixed(2)} of ${m.cpus} cores busy on average; ` +
      `${busy.toFixed(2)} cores used by processes other than the benchmark, the service, the ` +
      `baseline and the database server${busy > 0.2 ? ' (**the machine was busy**)' : ''} |`,
    '',
    `Data: ${n(d.sales)} sales, ${n(d.lines)} sale lines, ${n(d.payments)} payments, ` +
      `${n(d.cashMovements)} cash movements in ${d.shopCodes.length} shops, ${d.from} to ${d.to} ` +
      `(the project's generator). Load: autocannon, ${o.connections} connections, ` +
      `${o.rounds} rounds of ${o.durationSeconds} s per query and server, service and baseline ` +
      'alternating. Latencies are exact (every response), p50/p99 over all rounds.',
    '',
    markdownTable(r.rows),
    '',
    `Walk: ${d.walkShop}, ${n(d.walkShopSales)} sales in ${walk?.pages ?? 0} pages, one request at a ` +
      `time. Probe of the saturation scenario: \`GET /sales?Limit=${PROBE.limit}\` at ${PROBE.rate} ` +
      `requests/s over ${PROBE.connections} connections, against the token endpoint at ` +
      `${o.connections} connections.`,
    '',
    `Resident memory of the service, peak per scenario: ${phases.join('; ')}.`,
    '',
    results.compression ? compressionMarkdown(results.compression) : '',
    '',
    END,
  ].join('\n');
}

const SKELETON = `# Performance

How to measure and what was measured: see the run below.

${START}
${END}
`;

/** Replaces the generated section of docs/performance.md, keeping everything written by hand. */
export function writePerformanceDoc(record: RunRecord): string {
  const current = existsSync(PERFORMANCE_DOC) ? readFileSync(PERFORMANCE_DOC, 'utf8') : SKELETON;
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const section = resultsSection(record);
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + section + current.slice(end + END.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(PERFORMANCE_DOC, next);
  return PERFORMANCE_DOC;
}

const FEED_START =
  '<!-- bench:feed:start (written by npm run bench -- --feed; edit outside these markers) -->';
const FEED_END = '<!-- bench:feed:end -->';

/** Replaces a generated part of docs/performance.md between its markers (appended the first time). */
function writeMarkedSection(startMarker: string, endMarker: string, body: string): string {
  const current = readFileSync(PERFORMANCE_DOC, 'utf8');
  const start = current.indexOf(startMarker);
  const end = current.indexOf(endMarker);
  const section = `${startMarker}\n${body.trim()}\n${endMarker}`;
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + section + current.slice(end + endMarker.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(PERFORMANCE_DOC, next);
  return PERFORMANCE_DOC;
}

/** Replaces the feed's generated part of docs/performance.md (appended the first time). */
export function writeFeedSection(body: string): string {
  return writeMarkedSection(FEED_START, FEED_END, body);
}

const TRACING_START =
  '<!-- bench:tracing:start (written by npm run bench -- --tracing; edit outside these markers) -->';
const TRACING_END = '<!-- bench:tracing:end -->';

/** Replaces the tracing cost's generated part of docs/performance.md (issue 28). */
export function writeTracingSection(body: string): string {
  return writeMarkedSection(TRACING_START, TRACING_END, body);
}

const SYNC_START =
  '<!-- bench:sync:start (written by npm run bench -- --sync; edit outside these markers) -->';
const SYNC_END = '<!-- bench:sync:end -->';

/** Replaces the digest's and waiting feeds' generated part of docs/performance.md (issue 24). */
export function writeSyncSection(body: string): string {
  return writeMarkedSection(SYNC_START, SYNC_END, body);
}
