import { parseLocalDateTime } from '../src/common/local-date-time';
import type { Dataset } from './bench-dataset';
import type { BenchOptions } from './bench-options';
import { combine, drive, type LoadRun, type LoadSpec, type Measured } from './load';
import type { RssSampler } from './processes';
import type { Target } from './targets';
import { walk, type WalkResult } from './walk';

export interface Bench {
  options: BenchOptions;
  dataset: Dataset;
  token: string;
  /** Cursor of the deep sales page, made with the shared cursor secret. */
  deepCursor: string;
  service: Target;
  baseline: Target;
  serviceRss: RssSampler;
  baselineRss: RssSampler;
  say(line: string): void;
  /** A token of user `sub` for `shops`, signed with the service's key (a second user). */
  forge(sub: string, shops: string[]): string;
  /** Another service like `service`, with these settings besides (stopped by the caller). */
  startWith(env: Record<string, string>): Promise<Target>;
}

export interface PageScenario {
  key: 'sales-first' | 'sales-deep' | 'payments' | 'cash-movements' | 'sales-feed';
  label: string;
  path: string;
}

export interface PageResult extends PageScenario {
  service: Measured;
  baseline: Measured;
}

export interface WalkComparison {
  service: WalkResult[];
  baseline: WalkResult[];
}

export interface TokenSaturation {
  idle: Measured;
  loaded: Measured;
  /** Token requests answered meanwhile. */
  token: Measured;
}

export function pageScenarios(bench: Pick<Bench, 'dataset' | 'deepCursor'>): PageScenario[] {
  const { from, to, deep } = bench.dataset;
  const range = `From=${from}&To=${to}`;
  return [
    { key: 'sales-first', label: 'sales, first page', path: `/api/v1.0/sales?${range}` },
    {
      key: 'sales-deep',
      label: `sales, page after row ${deep.row.toLocaleString('en-US')}`,
      path: `/api/v1.0/sales?Cursor=${encodeURIComponent(bench.deepCursor)}`,
    },
    { key: 'payments', label: 'payments, first page', path: `/api/v1.0/payments?${range}` },
    {
      key: 'cash-movements',
      label: 'cash movements, first page',
      path: `/api/v1.0/cash-movements?${range}`,
    },
    {
      key: 'sales-feed',
      label: `sales feed, first page of ${bench.dataset.walkShop}`,
      path: `/api/v1.0/sales/feed?ShopCode=${bench.dataset.walkShop}`,
    },
  ];
}

/** The stored form of the year bounds, as the cursor of a query with From and To carries them. */
export function storedBounds(dataset: Dataset): { from: string; to: string } {
  return {
    from: parseLocalDateTime('From', dataset.from),
    to: parseLocalDateTime('To', dataset.to),
  };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Both servers give the same bytes for every scenario's query: the comparison is fair. */
export async function checkSameAnswers(bench: Bench, scenarios: PageScenario[]): Promise<void> {
  for (const scenario of scenarios) {
    const [a, b] = await Promise.all(
      [bench.service, bench.baseline].map(async (target) => {
        const response = await fetch(target.baseUrl + scenario.path, {
          headers: auth(bench.token),
        });
        return { status: response.status, text: await response.text() };
      }),
    );
    if (a.status !== 200 || b.status !== 200 || a.text !== b.text) {
      let at = 0;
      while (at < a.text.length && a.text[at] === b.text[at]) at++;
      throw new Error(
        `${scenario.label}: the service (${a.status}) and the baseline (${b.status}) answer ` +
          `differently from byte ${at}:\n  service:  ${a.text.slice(at, at + 160)}\n` +
          `  baseline: ${b.text.slice(at, at + 160)}`,
      );
    }
    const page = JSON.parse(a.text) as { data: unknown[]; nextCursor: string | null };
    if (page.data.length !== 500 || page.nextCursor === null) {
      throw new Error(`${scenario.label}: expected a full page of 500 records and a next cursor`);
    }
  }
}

function spec(bench: Bench, target: Target, path: string, seconds: number): LoadSpec {
  return {
    url: target.baseUrl + path,
    headers: auth(bench.token),
    connections: bench.options.connections,
    durationSeconds: seconds,
  };
}

function withoutFailures(label: string, run: LoadRun): LoadRun {
  if (run.failures.length > 0) throw new Error(`${label}: ${run.failures.join(', ')}`);
  return run;
}

function checked(label: string, run: LoadRun): LoadRun {
  withoutFailures(label, run);
  if (run.requests === 0) throw new Error(`${label}: no request answered`);
  return run;
}

/**
 * A few seconds of each query on both servers: JIT, pools and buffer pool warm, not measured.
 * One request is answered first, however long it takes; the load after it is checked for failed
 * answers only, not counted: on a loaded machine a cold page can outlast the quick variant's one
 * second, and autocannon does not count an answer still in flight when the time is up.
 */
export async function warmUp(bench: Bench, scenarios: PageScenario[]): Promise<void> {
  const seconds = bench.options.quick ? 1 : 3;
  for (const scenario of scenarios) {
    for (const target of [bench.service, bench.baseline]) {
      const first = await fetch(target.baseUrl + scenario.path, { headers: auth(bench.token) });
      await first.arrayBuffer();
      if (first.status !== 200) {
        throw new Error(`warm-up ${scenario.label}: ${target.name} answered ${first.status}`);
      }
      withoutFailures(
        `warm-up ${scenario.label}`,
        await drive(spec(bench, target, scenario.path, seconds)),
      );
    }
  }
}

/**
 * Throughput and latency of every page query at a fixed concurrency, service and baseline in
 * turn (A B A B …, every query in every round), so drift of the machine falls on both alike.
 */
export async function measurePages(bench: Bench, scenarios: PageScenario[]): Promise<PageResult[]> {
  const runs = new Map<string, LoadRun[]>();
  const seconds = bench.options.durationSeconds;
  for (let round = 1; round <= bench.options.rounds; round++) {
    for (const scenario of scenarios) {
      for (const target of [bench.service, bench.baseline]) {
        const key = `${scenario.key}/${target.name}`;
        bench.serviceRss.enter(scenario.label);
        const cpuBefore = await target.cpuSeconds();
        const run = checked(key, await drive(spec(bench, target, scenario.path, seconds)));
        run.cpuSeconds = (await target.cpuSeconds()) - cpuBefore;
        runs.set(key, [...(runs.get(key) ?? []), run]);
        bench.say(
          `  round ${round} ${scenario.label.padEnd(34)} ${target.name.padEnd(8)} ` +
            `${(run.requests / run.seconds).toFixed(1).padStart(7)} req/s ` +
            `${((run.cpuSeconds / run.requests) * 1000).toFixed(2).padStart(6)} ms CPU/page`,
        );
      }
    }
  }
  return scenarios.map((scenario) => ({
    ...scenario,
    service: combine(runs.get(`${scenario.key}/service`) ?? []),
    baseline: combine(runs.get(`${scenario.key}/baseline`) ?? []),
  }));
}

/** One shop's whole year through the cursor, one page at a time, service and baseline in turn. */
export async function measureWalks(bench: Bench): Promise<WalkComparison> {
  const { dataset } = bench;
  const query = { ShopCode: dataset.walkShop, From: dataset.from, To: dataset.to };
  const result: WalkComparison = { service: [], baseline: [] };
  const rounds = bench.options.quick ? 1 : Math.min(bench.options.rounds, 2);
  bench.serviceRss.enter('full-year walk');
  for (let round = 1; round <= rounds; round++) {
    for (const target of [bench.service, bench.baseline]) {
      const done = await walk(target.baseUrl, '/api/v1.0/sales', query, bench.token);
      if (done.records !== dataset.walkShopSales) {
        throw new Error(
          `${target.name} walk read ${done.records} sales, the shop has ${dataset.walkShopSales}`,
        );
      }
      result[target.name === 'service' ? 'service' : 'baseline'].push(done);
      bench.say(
        `  round ${round} walk of ${dataset.walkShop} ${target.name.padEnd(8)} ` +
          `${done.pages} pages, ${Math.round(done.recordsPerSecond)} records/s`,
      );
    }
  }
  return result;
}

function tokenSpec(bench: Bench, seconds: number): LoadSpec {
  return {
    url: `${bench.service.baseUrl}/api/v1.0/Token`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: bench.dataset.user.username,
      password: bench.dataset.user.password,
    }),
    connections: bench.options.connections,
    durationSeconds: seconds,
  };
}

/** The token endpoint alone, as fast as it answers at the fixed concurrency. */
export async function measureToken(bench: Bench): Promise<Measured> {
  bench.serviceRss.enter('token endpoint');
  const runs: LoadRun[] = [];
  for (let round = 1; round <= bench.options.rounds; round++) {
    const run = checked('token', await drive(tokenSpec(bench, bench.options.durationSeconds)));
    bench.say(`  round ${round} token endpoint ${(run.requests / run.seconds).toFixed(1)} req/s`);
    runs.push(run);
  }
  return combine(runs);
}

/** The probe: a light data request at a fixed rate, far from saturating the service on its own. */
export const PROBE = { path: '/api/v1.0/sales', limit: 50, rate: 20, connections: 2 } as const;

/**
 * Latency of a data request at a fixed rate, alone and while the token endpoint is saturated
 * (its argon2id hashing must run off the event loop), alternating idle and loaded runs.
 */
export async function measureTokenSaturation(bench: Bench): Promise<TokenSaturation> {
  const seconds = bench.options.durationSeconds;
  const { from, to } = bench.dataset;
  const probe: LoadSpec = {
    url: `${bench.service.baseUrl}${PROBE.path}?From=${from}&To=${to}&Limit=${PROBE.limit}`,
    headers: auth(bench.token),
    connections: PROBE.connections,
    overallRate: PROBE.rate,
    durationSeconds: seconds,
  };
  const idle: LoadRun[] = [];
  const loaded: LoadRun[] = [];
  const token: LoadRun[] = [];
  for (let round = 1; round <= bench.options.rounds; round++) {
    bench.serviceRss.enter('data while token saturated');
    idle.push(checked('probe idle', await drive(probe)));
    const load = drive(tokenSpec(bench, seconds + 2));
    await pause(1_000);
    loaded.push(checked('probe loaded', await drive(probe)));
    token.push(checked('token load', await load));
    bench.say(
      `  round ${round} probe p99 idle ${combine(idle.slice(-1)).p99.toFixed(1)} ms, ` +
        `token saturated ${combine(loaded.slice(-1)).p99.toFixed(1)} ms`,
    );
  }
  return { idle: combine(idle), loaded: combine(loaded), token: combine(token) };
}

export interface ReportRun {
  /** The body asked for, and how it was read ("read slowly": paused, then a piece at a time). */
  format: 'JSON' | 'CSV' | 'JSON gzip, read slowly';
  /** Sale lines in the body (CSV: lines but the header; JSON: the rows array). */
  rows: number;
  bytes: number;
  seconds: number;
  /** The service's resident memory at its peak while this report streamed. */
  rssPeakMb: number;
}

/** The report's longest period, 31 days, every shop of the token: the busiest call it answers. */
function reportPeriod(dataset: Dataset): { from: string; to: string } {
  const start = dataset.from.slice(0, 10);
  const end = new Date(`${start}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 31);
  return { from: `${start}T00:00:00`, to: `${end.toISOString().slice(0, 10)}T00:00:00` };
}

/**
 * TransactionDetailReport over 31 days of every shop, as JSON and as CSV, read as a client
 * reads a download: the body taken as it streams, nothing kept. Then the JSON gzip-compressed,
 * read by a slow client (nothing for 1.5 s, then a piece at a time with a pause): the
 * compression's backpressure must reach the reads, or the service holds the report's text
 * (@fastify/compress held about 55 MB more, decision 70). Three calls, far under the limit.
 */
export async function measureReport(bench: Bench): Promise<ReportRun[]> {
  const { from, to } = reportPeriod(bench.dataset);
  const url = `${bench.service.baseUrl}/api/v1.0/TransactionDetailReport?From=${from}&To=${to}`;
  const runs: ReportRun[] = [];
  for (const [format, accept, encoding] of [
    ['JSON', 'application/json', 'identity'],
    ['CSV', 'text/csv', 'identity'],
    ['JSON gzip, read slowly', 'application/json', 'gzip'],
  ] as const) {
    const slow = encoding === 'gzip';
    const phase = `report ${format}, 31 days`;
    bench.serviceRss.enter(phase);
    const started = process.hrtime.bigint();
    const headers = { ...auth(bench.token), accept, 'accept-encoding': encoding };
    const response = await fetch(url, { headers });
    if (response.status !== 200 || !response.body) {
      throw new Error(`report ${format} answered ${response.status}: ${await response.text()}`);
    }
    if (slow) await pause(1_500);
    let bytes = 0;
    let newlines = 0;
    let tail = '';
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const chunk: Uint8Array = next.value as Uint8Array;
      bytes += chunk.byteLength;
      const text = decoder.decode(chunk, { stream: true });
      if (format === 'CSV') {
        for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines++;
      } else {
        tail = (tail + text).slice(-4096);
      }
      if (slow) await pause(2);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const rows = format === 'CSV' ? newlines - 1 : reportLines(tail);
    runs.push({
      format,
      rows,
      bytes,
      seconds,
      rssPeakMb: bench.serviceRss.peakByPhase.get(phase) ?? 0,
    });
    bench.say(
      `  report ${format}: ${rows.toLocaleString('en-US')} lines, ${(bytes / 1e6).toFixed(1)} MB ` +
        `in ${seconds.toFixed(1)} s`,
    );
  }
  bench.serviceRss.enter('after the report');
  return runs;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The rows of a JSON report, from its totals at the body's end: lines plus voided lines. */
function reportLines(tail: string): number {
  const totals = tail.slice(tail.lastIndexOf('"totals"'));
  const count = (name: string) => {
    const match = new RegExp(`"${name}":(\\d+)`).exec(totals);
    if (!match) throw new Error(`report JSON: no totals.${name} at the end: …${tail.slice(-200)}`);
    return Number(match[1]);
  };
  return count('lines') + count('voidedLines');
}
