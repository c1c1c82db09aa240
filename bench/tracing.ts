import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dataset } from './bench-dataset';
import { combine, drive, type LoadRun, type Measured } from './load';
import { processJiffies } from './machine';
import type { Started } from './processes';
import { type SharedSecrets, startService } from './targets';

/**
 * What tracing costs (issue 28): the same first page of sales (100 rows with their lines, then
 * 500, the most a call returns and the page a client syncing asks for) driven
 * against the service with tracing off (no OTEL_* variable: the SDK is not loaded), on with every
 * request sampled and exported (OTLP/protobuf to a sink in this process that reads and answers
 * 200), and on with no request sampled (OTEL_TRACES_SAMPLER=always_off: the SDK and
 * instrumentations loaded, nothing recorded). Two figures against tracing off: throughput, and
 * capacity, the service's CPU time per request (from /proc) inverted: on a machine other
 * processes load, throughput swings with them while CPU per request swings less, and the service
 * is CPU-bound, so capacity is what the targets are judged on.
 *
 * How, so that a shared machine's swings weigh on every variant alike: the three services run
 * side by side for the whole measure, and are driven one at a time in short slices, interleaved:
 * a round is one slice of each variant for each page, in an order that rotates from round to
 * round. A slice's CPU is its service's from the slice's start to that service's next slice
 * (what the service does once the load stops, exporting the last spans of a batch, is counted
 * with the slice that caused it). Each round gives a ratio against off; the verdict is the median
 * of the rounds' ratios, and the table shows their range. Run in turn for 10 s each, the same
 * build's figures differed by 20 % (docs/performance.md, "Tracing").
 */
export interface TracingInput {
  databaseUrl: string;
  secrets: SharedSecrets;
  runtime: Readonly<Record<string, string>>;
  dataset: Dataset;
  connections: number;
  durationSeconds: number;
  rounds: number;
  signIn(service: Started): Promise<string>;
  say(line: string): void;
}

/** The pages measured: a request's fixed cost weighs more on the smaller. */
const PAGES = [100, 500] as const;

export interface TracingRow {
  variant: string;
  /** Rows of the page (its sales, each with its lines). */
  limit: number;
  measured: Measured;
  /** Throughput over tracing off's. */
  ratio: number;
  /** Service CPU milliseconds per request. */
  cpuMsPerRequest: number;
  /**
   * Tracing off's CPU per request over this one's, the median of the rounds' (each round's off
   * against the same round's variant): the share of off's capacity left.
   */
  capacity: number;
  /** The lowest and highest of the rounds' capacity ratios. */
  capacityRange: [number, number];
  rounds: number;
  /** The issue's target for the ratio (undefined for off itself). */
  target?: number;
}

/** An OTLP/HTTP collector that takes everything and keeps nothing. */
async function startSink(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** One slice: a variant driven on a page, the requests it answered and its service's CPU. */
interface Slice {
  variant: number;
  page: number;
  round: number;
  run: LoadRun;
  /** The service's jiffies at the slice's start, and at its next slice's start (or the end). */
  from: number;
  to: number;
}

export async function measureTracing(input: TracingInput): Promise<TracingRow[]> {
  const sink = await startSink();
  const variants: Array<{ variant: string; env: Record<string, string>; target?: number }> = [
    { variant: 'tracing off', env: {} },
    {
      variant: 'on, every request sampled',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'always_on' },
      target: 0.9,
    },
    {
      variant: 'on, nothing sampled',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'always_off' },
      target: 0.97,
    },
  ];
  const path = (limit: number): string =>
    `/api/v1.0/sales?ShopCode=${input.dataset.walkShop}&From=${input.dataset.from}&To=${input.dataset.to}&Limit=${limit}`;
  const slices: Slice[] = [];
  const services: Started[] = [];
  try {
    for (const variant of variants) {
      services.push(
        await startService(input.databaseUrl, input.secrets, { ...input.runtime, ...variant.env }),
      );
    }
    const tokens = await Promise.all(services.map((service) => input.signIn(service)));
    const spec = (v: number, limit: number, durationSeconds: number) => ({
      url: services[v].baseUrl + path(limit),
      headers: { authorization: `Bearer ${tokens[v]}` },
      connections: input.connections,
      durationSeconds,
    });
    // The last slice of each service, whose window ends at the service's next slice.
    const open: Array<Slice | undefined> = variants.map(() => undefined);
    const drive1 = async (v: number, p: number, round: number): Promise<void> => {
      const from = processJiffies(services[v].pid);
      const last = open[v];
      if (last) last.to = from;
      const run = await drive(spec(v, PAGES[p], input.durationSeconds));
      if (run.failures.length > 0) {
        throw new Error(`${variants[v].variant}: ${run.failures.join(', ')}`);
      }
      const slice: Slice = { variant: v, page: p, round, run, from, to: from };
      slices.push(slice);
      open[v] = slice;
    };
    for (const [v] of variants.entries()) {
      for (const limit of PAGES) await drive(spec(v, limit, 2)); // warm-up
    }
    for (let round = 0; round < input.rounds; round++) {
      for (const [p, limit] of PAGES.entries()) {
        const order = variants.map((_, i) => (i + round) % variants.length);
        for (const v of order) await drive1(v, p, round);
        const rates = order
          .map((v) => slices.find((s) => s.round === round && s.page === p && s.variant === v))
          .map(
            (s) =>
              `${variants[s!.variant].variant} ${(s!.run.requests / s!.run.seconds).toFixed(0)}`,
          );
        input.say(`  round ${round + 1}, ${limit} rows, req/s: ${rates.join(', ')}`);
      }
    }
    // What each service does once its last slice ends (the sampled one exports its last spans,
    // after the batch processor's delay of 5 s) is counted with that slice.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    for (const [v, slice] of open.entries()) if (slice) slice.to = processJiffies(services[v].pid);
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    await new Promise((resolve) => sink.server.close(resolve));
  }
  // Linux counts CPU time in jiffies of 10 ms (USER_HZ 100).
  const cpuMs = (of: readonly Slice[]): number =>
    (of.reduce((sum, s) => sum + s.to - s.from, 0) * 10) /
    Math.max(
      1,
      of.reduce((sum, s) => sum + s.run.requests, 0),
    );
  return PAGES.flatMap((limit, p) => {
    const at = (v: number, round?: number) =>
      slices.filter(
        (s) => s.page === p && s.variant === v && (round === undefined || s.round === round),
      );
    const rounds = Array.from({ length: input.rounds }, (_, r) => r);
    const rps = (of: readonly Slice[]) => of[0].run.requests / of[0].run.seconds;
    return variants.map((v, i) => {
      const capacities = rounds.map((r) => cpuMs(at(0, r)) / cpuMs(at(i, r)));
      return {
        variant: v.variant,
        limit,
        measured: combine(at(i).map((s) => s.run)),
        ratio: median(rounds.map((r) => rps(at(i, r)) / rps(at(0, r)))),
        cpuMsPerRequest: cpuMs(at(i)),
        capacity: median(capacities),
        capacityRange: [Math.min(...capacities), Math.max(...capacities)],
        rounds: rounds.length,
        target: v.target,
      };
    });
  });
}

/** The rows as a Markdown table. */
export function tracingTable(rows: readonly TracingRow[]): string {
  const lines = [
    '| Page | Variant | req/s | p50 ms | p99 ms | Throughput vs off | CPU ms / request | Capacity vs off (median of rounds) | Rounds: lowest – highest | Target | Verdict |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const { rps, p50, p99 } = row.measured;
    const verdict = row.target === undefined ? '' : row.capacity >= row.target ? 'PASS' : 'FAIL';
    lines.push(
      `| ${row.limit} sales | ${row.variant} | ${rps.toFixed(0)} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${row.ratio.toFixed(3)}× | ${row.cpuMsPerRequest.toFixed(2)} | ${row.capacity.toFixed(3)}× | ${row.capacityRange.map((c) => c.toFixed(3)).join(' – ')} (${row.rounds}) | ${row.target === undefined ? '' : `≥ ${row.target}×`} | ${verdict} |`,
    );
  }
  return lines.join('\n');
}
