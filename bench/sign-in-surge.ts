import { combine, drive, type LoadRun, type LoadSpec, type Measured } from './load';
import { PROBE, type Bench } from './scenarios';

/**
 * Legitimate sign-ins, all at once: one user's right password on 16 connections. Each run
 * alternates `slices` idle windows with as many surge windows (idle, surge, idle, surge, …) and
 * pools each side's probes, so that the load of other processes on the machine falls on both
 * sides of the ratio alike.
 */
export const SURGE = { connections: 16, runs: 3, target: 1.5, slices: 5 } as const;

/** The surge's sign-ins start this long before its window's probe does (the queue fills). */
const RAMP_MS = 1_000;

export interface SurgeRun {
  idle: Measured;
  surge: Measured;
  tokensPerSecond: number;
  /** Peaks sampled from the service's /metrics every 100 ms during the surge. */
  poolWaitingPeak: number;
  poolInUsePeak: number;
}

const gauge = (metrics: string, name: string, state: string): number => {
  const match = new RegExp(`^${name}\\{state="${state}"\\} (\\d+)`, 'm').exec(metrics);
  return match ? Number(match[1]) : 0;
};
const pool = (metrics: string, state: string) =>
  gauge(metrics, 'pos_api_db_pool_connections', state);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Samples the service's database pool while `during` runs: the peaks of waiting and in use. */
async function samplingPool(bench: Bench, during: Promise<unknown>) {
  let waiting = 0;
  let inUse = 0;
  let done = false;
  void during.finally(() => (done = true));
  while (!done && bench.service.metrics) {
    const metrics = await bench.service.metrics();
    waiting = Math.max(waiting, pool(metrics, 'waiting'));
    inUse = Math.max(inUse, pool(metrics, 'in_use'));
    await sleep(100);
  }
  return { waiting, inUse };
}

/**
 * Waits until the service has no password verification running or queued: the sign-ins a
 * finished surge window left behind (its client gone) must not run into the next idle window.
 */
async function drained(bench: Bench): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (bench.service.metrics && Date.now() < deadline) {
    const metrics = await bench.service.metrics();
    const hashing = ['running', 'queued'].map((state) =>
      gauge(metrics, 'pos_api_password_hash_queue', state),
    );
    if (hashing.every((n) => n === 0)) return;
    await sleep(50);
  }
}

/**
 * A data page's latency at a fixed rate (the saturation scenario's probe), alone and while 16
 * connections sign in with the right password as fast as the token route answers, in three
 * runs: each run's loaded p99 against its own idle p99, the target at most 1.5x in every run.
 * A run is `SURGE.slices` idle windows and as many surge windows in turn, each a fifth of
 * `--duration`, so both sides see the same minutes of the machine. The pool is sampled
 * meanwhile, to see whether the reads wait for a connection.
 */
export async function measureSignInSurge(bench: Bench): Promise<SurgeRun[]> {
  const sliceSeconds = Math.max(1, bench.options.durationSeconds / SURGE.slices);
  const { from, to } = bench.dataset;
  const probe: LoadSpec = {
    url: `${bench.service.baseUrl}${PROBE.path}?From=${from}&To=${to}&Limit=${PROBE.limit}`,
    headers: { authorization: `Bearer ${bench.token}` },
    connections: PROBE.connections,
    overallRate: PROBE.rate,
    durationSeconds: sliceSeconds,
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
    durationSeconds: sliceSeconds + RAMP_MS / 1000 + 1,
  };
  const ok = (label: string, run: LoadRun): LoadRun => {
    if (run.failures.length > 0) throw new Error(`${label}: ${run.failures.join(', ')}`);
    return run;
  };
  const runs: SurgeRun[] = [];
  bench.serviceRss.enter('sign-in surge');
  for (let run = 1; run <= SURGE.runs; run++) {
    const idle: LoadRun[] = [];
    const surge: LoadRun[] = [];
    const tokens: LoadRun[] = [];
    const peaks = { waiting: 0, inUse: 0 };
    for (let slice = 1; slice <= SURGE.slices; slice++) {
      idle.push(ok('probe idle', await drive(probe)));
      const load = drive(signIns);
      const sampled = samplingPool(bench, load);
      await sleep(RAMP_MS);
      surge.push(ok('probe during the surge', await drive(probe)));
      tokens.push(ok('sign-ins', await load));
      const slicePeaks = await sampled;
      peaks.waiting = Math.max(peaks.waiting, slicePeaks.waiting);
      peaks.inUse = Math.max(peaks.inUse, slicePeaks.inUse);
      await drained(bench);
    }
    const signedIn = combine(tokens);
    runs.push({
      idle: combine(idle),
      surge: combine(surge),
      tokensPerSecond: signedIn.rps,
      poolWaitingPeak: peaks.waiting,
      poolInUsePeak: peaks.inUse,
    });
    const last = runs[runs.length - 1];
    bench.say(
      `  run ${run}: probe p50 idle ${last.idle.p50.toFixed(1)} ms, surge ${last.surge.p50.toFixed(1)} ms; ` +
        `p99 idle ${last.idle.p99.toFixed(1)} ms, surge ${last.surge.p99.toFixed(1)} ms ` +
        `(${last.idle.requests} and ${last.surge.requests} probes; ` +
        `${last.tokensPerSecond.toFixed(1)} tokens/s; pool peak ${last.poolInUsePeak} in use, ` +
        `${last.poolWaitingPeak} waiting)`,
    );
  }
  return runs;
}
