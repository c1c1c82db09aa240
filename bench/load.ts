import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  /** Requests per second over all connections (fixed-rate load), else as fast as answered. */
  overallRate?: number;
}

/** One timed run: what came back, and every 2xx latency (ms, sub-millisecond precision). */
export interface LoadRun {
  requests: number;
  seconds: number;
  bytes: number;
  latenciesMs: number[];
  /** Non-2xx answers, socket errors and timeouts: any of them makes the run invalid. */
  failures: string[];
  /** The server's CPU time over the run (process.cpuUsage()), when it was counted. */
  cpuSeconds?: number;
}

/** Drives one URL with autocannon for a fixed time and keeps the exact latencies. */
export function drive(spec: LoadSpec): Promise<LoadRun> {
  return new Promise((resolve, reject) => {
    const latenciesMs: number[] = [];
    const statuses = new Map<number, number>();
    const started = process.hrtime.bigint();
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method ?? 'GET',
        headers: spec.headers,
        body: spec.body,
        connections: spec.connections,
        duration: spec.durationSeconds,
        overallRate: spec.overallRate,
        timeout: 30,
      },
      (error, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const failures = [...statuses]
          .filter(([status]) => status < 200 || status > 299)
          .map(([status, n]) => `${n} × HTTP ${status}`);
        if (result.errors > 0) failures.push(`${result.errors} socket errors`);
        if (result.timeouts > 0) failures.push(`${result.timeouts} timeouts`);
        resolve({
          requests: latenciesMs.length,
          seconds,
          bytes: result.throughput.total,
          latenciesMs,
          failures,
        });
      },
    );
    instance.on('response', (_client, statusCode: number, _bytes, responseTime: number) => {
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
      if (statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTime);
    });
  });
}

/** The p-th percentile (0..100) of latencies, nearest-rank. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/** Several runs of one target taken as one sample: requests over total time, pooled latencies. */
export interface Measured {
  runs: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  mbPerSecond: number;
  /** The server's CPU per answered request (ms), NaN unless every run counted it. */
  cpuMsPerRequest: number;
}

export function combine(runs: readonly LoadRun[]): Measured {
  const latencies = runs.flatMap((r) => r.latenciesMs);
  const seconds = runs.reduce((s, r) => s + r.seconds, 0);
  const requests = runs.reduce((s, r) => s + r.requests, 0);
  const bytes = runs.reduce((s, r) => s + r.bytes, 0);
  return {
    runs: runs.length,
    requests,
    rps: requests / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    mbPerSecond: bytes / seconds / 1e6,
    cpuMsPerRequest: runs.every((r) => r.cpuSeconds !== undefined)
      ? (runs.reduce((s, r) => s + (r.cpuSeconds ?? 0), 0) / requests) * 1000
      : NaN,
  };
}
