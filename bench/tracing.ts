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
 * instrumentations loaded, nothing recorded). The variants run in turn, round after round, so a
 * busy machine weighs on each alike. Two figures against tracing off: throughput, and capacity,
 * the service's CPU time per request (from /proc) inverted: on a machine other processes load,
 * throughput swings with them while CPU per request does not, and the service is CPU-bound, so
 * capacity is what the targets are judged on.
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
  /** Tracing off's CPU per request over this one's: the share of off's capacity left. */
  capacity: number;
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
  // One sample per variant and page.
  const runs = variants.map(() => PAGES.map(() => [] as LoadRun[]));
  const cpu = variants.map(() => PAGES.map(() => ({ jiffies: 0, requests: 0 })));
  try {
    for (let round = 0; round < input.rounds; round++) {
      for (const [i, variant] of variants.entries()) {
        const service = await startService(input.databaseUrl, input.secrets, {
          ...input.runtime,
          ...variant.env,
        });
        try {
          const token = await input.signIn(service);
          for (const [p, limit] of PAGES.entries()) {
            const spec = {
              url: service.baseUrl + path(limit),
              headers: { authorization: `Bearer ${token}` },
              connections: input.connections,
            };
            await drive({ ...spec, durationSeconds: 2 }); // warm-up
            const before = processJiffies(service.pid);
            const run = await drive({ ...spec, durationSeconds: input.durationSeconds });
            cpu[i][p].jiffies += processJiffies(service.pid) - before;
            cpu[i][p].requests += run.requests;
            if (run.failures.length > 0)
              throw new Error(`${variant.variant}: ${run.failures.join(', ')}`);
            runs[i][p].push(run);
            input.say(
              `  round ${round + 1}, ${variant.variant}, ${limit} rows: ${(run.requests / run.seconds).toFixed(0)} req/s`,
            );
          }
        } finally {
          await service.stop();
        }
      }
    }
  } finally {
    await new Promise((resolve) => sink.server.close(resolve));
  }
  return PAGES.flatMap((limit, p) => {
    const measured = runs.map((r) => combine(r[p]));
    // Linux counts CPU time in jiffies of 10 ms (USER_HZ 100).
    const cpuMs = cpu.map((c) => (c[p].jiffies * 10) / Math.max(1, c[p].requests));
    return variants.map((v, i) => ({
      variant: v.variant,
      limit,
      measured: measured[i],
      ratio: measured[i].rps / measured[0].rps,
      cpuMsPerRequest: cpuMs[i],
      capacity: cpuMs[0] / cpuMs[i],
      target: v.target,
    }));
  });
}

/** The rows as a Markdown table. */
export function tracingTable(rows: readonly TracingRow[]): string {
  const lines = [
    '| Page | Variant | req/s | p50 ms | p99 ms | Throughput vs off | CPU ms / request | Capacity vs off | Target | Verdict |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const { rps, p50, p99 } = row.measured;
    const verdict = row.target === undefined ? '' : row.capacity >= row.target ? 'PASS' : 'FAIL';
    lines.push(
      `| ${row.limit} sales | ${row.variant} | ${rps.toFixed(0)} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${row.ratio.toFixed(3)}× | ${row.cpuMsPerRequest.toFixed(2)} | ${row.capacity.toFixed(3)}× | ${row.target === undefined ? '' : `≥ ${row.target}×`} | ${verdict} |`,
    );
  }
  return lines.join('\n');
}
