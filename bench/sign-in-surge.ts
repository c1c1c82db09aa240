import { combine, drive, type LoadRun, type LoadSpec, type Measured } from './load';
import { PROBE, type Bench } from './scenarios';

/** Legitimate sign-ins, all at once: one user's right password on 16 connections. */
export const SURGE = { connections: 16, runs: 3, target: 1.5 } as const;

export interface SurgeRun {
  idle: Measured;
  surge: Measured;
  tokensPerSecond: number;
  /** Peaks sampled from the service's /metrics every 100 ms during the surge. */
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
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { waiting, inUse };
}

/**
 * A data page's latency at a fixed rate (the saturation scenario's probe), alone and while 16
 * connections sign in with the right password as fast as the token route answers, in three
 * runs: each run's loaded p99 against its own idle p99, the target at most 1.5x in every run.
 * The pool is sampled meanwhile, to see whether the reads wait for a connection.
 */
export async function measureSignInSurge(bench: Bench): Promise<SurgeRun[]> {
  const seconds = bench.options.durationSeconds;
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
    durationSeconds: seconds + 2,
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
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const surge = ok('probe during the surge', await drive(probe));
    const tokens = ok('sign-ins', await load);
    const peaks = await pool;
    runs.push({
      idle: combine([idle]),
      surge: combine([surge]),
      tokensPerSecond: tokens.requests / tokens.seconds,
      poolWaitingPeak: peaks.waiting,
      poolInUsePeak: peaks.inUse,
    });
    const last = runs[runs.length - 1];
    bench.say(
      `  run ${run}: probe p99 idle ${last.idle.p99.toFixed(1)} ms, surge ${last.surge.p99.toFixed(1)} ms ` +
        `(${last.tokensPerSecond.toFixed(1)} tokens/s; pool peak ${last.poolInUsePeak} in use, ` +
        `${last.poolWaitingPeak} waiting)`,
    );
  }
  return runs;
}
