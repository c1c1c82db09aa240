import { combine, drive, type LoadRun, type LoadSpec, type Measured } from './load';
import { PROBE, type Bench } from './scenarios';

/**
 * Legitimate sign-ins, all at once: one user's right password on 16 connections. Each side of a
 * run has at least `probesPerSide` probes (30 s at the probe's 20 a second), so its p99 is the
 * sixth-slowest request rather than the second: one stall of another process decides less.
 */
export const SURGE = { connections: 16, runs: 3, target: 1.5, probesPerSide: 600 } as const;

export interface SurgeRun {
  idle: Measured;
  surge: Measured;
  tokensPerSecond: number;
  /** The slowest probe during the surge (its first instant included). */
  surgeMaxMs: number;
  /** Peaks sampled from the service's /metrics every 50 ms during the surge. */
  poolWaitingPeak: number;
  poolInUsePeak: number;
}

const gauge = (metrics: string, state: string): number => {
  const match = new RegExp(`^pos_api_db_pool_connections\\{state="${state}"\\} (\\d+)`, 'm').exec(
    metrics,
  );
  return match ? Number(match[1]) : 0;
};

/** Samples the service's database pool while `during` runs: the peaks of waiting and in use. */
async function samplingPool(bench: Bench, during: Promise<unknown>) {
  let waiting = 0;
  let inUse = 0;
  let done = false;
  void during.finally(() => (done = true));
  while (!done && bench.service.metrics) {
    const metrics = await bench.service.metrics();
    waiting = Math.max(waiting, gauge(metrics, 'waiting'));
    inUse = Math.max(inUse, gauge(metrics, 'in_use'));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { waiting, inUse };
}

/**
 * A data page's latency at a fixed rate (the saturation scenario's probe), alone and while 16
 * connections sign in with the right password as fast as the token route answers, in three
 * runs: each run's loaded p99 against its own idle p99, the target at most 1.5x in every run.
 * The surge's probes start with its sign-ins (t = 0), so the burst of its first instant, when 16
 * sign-ins reach the database together, is measured too. The pool is sampled meanwhile, to see
 * whether the reads wait for a connection.
 */
export async function measureSignInSurge(bench: Bench): Promise<SurgeRun[]> {
  const seconds = bench.options.quick
    ? bench.options.durationSeconds
    : Math.max(bench.options.durationSeconds, Math.ceil(SURGE.probesPerSide / PROBE.rate));
  const { from, to } = bench.dataset;
  const probe: LoadSpec = {
    url: `${bench.service.baseUrl}${PROBE.path}?From=${from}&To=${to}&Limit=${PROBE.limit}`,
    headers: { authorization: `Bearer ${bench.token}` },
    connections: PROBE.connections,
    overallRate: PROBE.rate,
    durationSeconds: seconds,
  };
  const signIns: LoadSpec = {
    url: `${bench.service.baseUrl}/api/v1.0/Token`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: bench.dataset.user.username,
      password: bench.dataset.user.password,
    }),
    connections: SURGE.connections,
    // Outlasts the probe's window, which opens at the same instant.
    durationSeconds: seconds + 1,
  };
  const ok = (label: string, run: LoadRun): LoadRun => {
    if (run.failures.length > 0) throw new Error(`${label}: ${run.failures.join(', ')}`);
    return run;
  };
  const runs: SurgeRun[] = [];
  bench.serviceRss.enter('sign-in surge');
  for (let run = 1; run <= SURGE.runs; run++) {
    const idle = ok('probe idle', await drive(probe));
    const load = drive(signIns);
    const pool = samplingPool(bench, load);
    const surge = ok('probe during the surge', await drive(probe));
    const tokens = ok('sign-ins', await load);
    const peaks = await pool;
    runs.push({
      idle: combine([idle]),
      surge: combine([surge]),
      surgeMaxMs: Math.max(...surge.latenciesMs),
      tokensPerSecond: tokens.requests / tokens.seconds,
      poolWaitingPeak: peaks.waiting,
      poolInUsePeak: peaks.inUse,
    });
    const last = runs[runs.length - 1];
    bench.say(
      `  run ${run}: probe p99 idle ${last.idle.p99.toFixed(1)} ms, surge ${last.surge.p99.toFixed(1)} ms ` +
        `(${last.tokensPerSecond.toFixed(1)} tokens/s; pool peak ${last.poolInUsePeak} in use, ` +
        `${last.poolWaitingPeak} waiting; p50 idle ${last.idle.p50.toFixed(1)} ms, surge ` +
        `${last.surge.p50.toFixed(1)} ms; ${last.idle.requests} and ${last.surge.requests} probes; ` +
        `slowest surge probe ${last.surgeMaxMs.toFixed(1)} ms)`,
    );
  }
  return runs;
}
