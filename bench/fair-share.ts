import type { BenchOptions } from './bench-options';
import { call, percentile } from './digest-burst';
import type { Compared, ResultRow } from './result-row';
import type { Bench } from './scenarios';
import { busiestShop } from './sync-database';
import type { Target } from './targets';

/**
 * Issue 54, 1: the expensive reads shared fairly. User A keeps two loops of 92-day day closes of
 * the busiest shop and ten loops of 92-day digests by business date (never from the cache) going;
 * user B, on another shop, asks two 92-day digests at once every 1.5 s (from the cache after the
 * first, as an integrator's repeated check is), and reads its first page of 100 sales one call at
 * a time. B's figures alone and under A, in alternating slices;
 * A's refusals counted by status. A service with the defaults, its limits in Redis; with several
 * (`--binlog`: the log followed and not), their rounds in turn, each with its own users' limits.
 */
export interface FairShareRun {
  shopA: string;
  shopB: string;
  /** A's 92-day close alone, before the rounds: cold (no cache holds it yet). */
  closeAloneMs: number;
  /** A's closes answered 200 under load: from the cache when the log vouches for their days. */
  closeLoaded: number[];
  digestAlone: number[];
  digestLoaded: number[];
  listAlone: number[];
  listLoaded: number[];
  /** B's digests answered other than 200, under A: the target is none. */
  bRefused: number;
  /** A's calls by status while loading. */
  aStatuses: Map<number, number>;
  /** The details of A's 503s, each once. */
  a503: Set<string>;
  /** A's 429s by the limit their detail names (its first words). */
  a429: Map<string, number>;
}

/** What the scenario needs of a run: the main run's Bench, or `--binlog`'s database and users. */
export type FairShareBench = Pick<Bench, 'dataset' | 'say' | 'forge'> & {
  options: Pick<BenchOptions, 'databaseUrl' | 'quick' | 'rounds'>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
/** B's pace: 80 digests a minute, below DIGEST_CALLS_PER_MINUTE (120). */
const PAIR_EVERY_MS = 1500;
/** The median, NaN of none (A's closes may all be refused). */
const p50 = (values: number[]) => (values.length > 0 ? percentile(values, 0.5) : NaN);
const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Runs `once` again and again for `seconds`; the times of its calls. */
async function repeatFor(seconds: number, once: () => Promise<number[]>): Promise<number[]> {
  const times: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) times.push(...(await once()));
  return times;
}

/**
 * The scenario against each of `services` (the business dates' index already made), their rounds
 * in turn so a drift of the machine falls on all alike; a run for each, in their order.
 */
export async function measureFairShare(
  bench: FairShareBench,
  services: Target[],
): Promise<FairShareRun[]> {
  const { dataset } = bench;
  const shopA = await busiestShop(bench.options.databaseUrl);
  const shopB = dataset.shopCodes.find((code) => code !== shopA) ?? shopA;
  const [a, b] = [bench.forge('bench-fair-a', [shopA]), bench.forge('bench-fair-b', [shopB])];
  const from = dataset.from.slice(0, 10);
  const to = addDays(from, 92);
  const close = `/api/v1.0/business-days?ShopCode=${shopA}&From=${from}&To=${to}`;
  const digestA = `/api/v1.0/sales/digest?ShopCode=${shopA}&BusinessDateFrom=${from}&BusinessDateTo=${to}`;
  const digestB = `/api/v1.0/sales/digest?ShopCode=${shopB}&From=${from}&To=${to}`;
  const list = `/api/v1.0/sales?ShopCode=${shopB}&From=${dataset.from}&To=${dataset.to}&Limit=100`;
  const runs = services.map((): FairShareRun => ({
    shopA,
    shopB,
    closeAloneMs: NaN,
    closeLoaded: [],
    digestAlone: [],
    digestLoaded: [],
    listAlone: [],
    listLoaded: [],
    bRefused: 0,
    aStatuses: new Map(),
    a503: new Set(),
    a429: new Map(),
  }));
  const seconds = bench.options.quick ? 3 : 8;
  for (const [i, service] of services.entries()) {
    const base = service.baseUrl;
    // Warm: B's digest in the cache (an integrator's repeated verification), one at a time.
    for (let tries = 0; (await call(base, digestB, b)).status !== 200; tries++) {
      if (tries === 3) throw new Error("B's digest never answered 200 alone");
    }
    // A's close alone, cold: what each of its loops' calls costs when nothing holds it.
    const first = await call(base, close, a);
    if (first.status !== 200) {
      const why = `${first.status} in ${first.ms.toFixed(0)} ms: ${first.detail}`;
      throw new Error(`A's close answered ${why} alone`);
    }
    runs[i].closeAloneMs = first.ms;
  }
  for (let round = 0; round < bench.options.rounds; round++) {
    for (const [i, service] of services.entries()) {
      await fairShareRound(service.baseUrl, runs[i], seconds, {
        a,
        b,
        close,
        digestA,
        digestB,
        list,
      });
      const run = runs[i];
      bench.say(
        `  round ${round + 1}${services.length > 1 ? `, service ${i + 1}` : ''}: B's digest p50 ` +
          `${percentile(run.digestAlone, 0.5).toFixed(0)} → ` +
          `${percentile(run.digestLoaded, 0.5).toFixed(0)} ms, list p50 ` +
          `${percentile(run.listAlone, 0.5).toFixed(1)} → ${percentile(run.listLoaded, 0.5).toFixed(1)} ms; ` +
          `A: ${JSON.stringify(Object.fromEntries(run.aStatuses))}, closes p50 ` +
          `${p50(run.closeLoaded).toFixed(0)} ms, 429: ` +
          `${JSON.stringify(Object.fromEntries(run.a429))} ${[...run.a503].join('; ')}`,
      );
    }
  }
  return runs;
}

interface Calls {
  a: string;
  b: string;
  close: string;
  digestA: string;
  digestB: string;
  list: string;
}

/** One round on one service: B alone, then B under A's loops; into `run`. */
async function fairShareRound(base: string, run: FairShareRun, seconds: number, calls: Calls) {
  const { a, b, close, digestA, digestB, list } = calls;
  let loaded = false;
  // B is the patient user: a pair every PAIR_EVERY_MS at most, within DIGEST_CALLS_PER_MINUTE.
  const bPair = async () => {
    const started = Date.now();
    const answers = await Promise.all([call(base, digestB, b), call(base, digestB, b)]);
    if (loaded) run.bRefused += answers.filter((r) => r.status !== 200).length;
    else if (answers.some((r) => r.status !== 200)) {
      throw new Error(`B's digest answered ${answers.map((r) => r.status).join(', ')} alone`);
    }
    await sleep(PAIR_EVERY_MS - (Date.now() - started));
    return answers.map((r) => r.ms);
  };
  const bList = async () => {
    const { status, ms } = await call(base, list, b);
    if (status !== 200) throw new Error(`B's list answered ${status}`);
    return [ms];
  };
  await bList();
  run.digestAlone.push(...(await repeatFor(seconds, bPair)));
  run.listAlone.push(...(await repeatFor(seconds, bList)));
  loaded = true;
  const loop = async (path: string) => {
    while (loaded) {
      const { status, retryAfter, detail, ms } = await call(base, path, a);
      run.aStatuses.set(status, (run.aStatuses.get(status) ?? 0) + 1);
      if (status === 200 && path === close) run.closeLoaded.push(ms);
      if (status === 503) run.a503.add(`${path.split('?')[0]}: ${detail}`);
      if (status === 429) {
        const limit = detail.split(/[:;,.]/)[0].slice(0, 60);
        run.a429.set(limit, (run.a429.get(limit) ?? 0) + 1);
      }
      if (status === 429 || status === 503) await sleep(retryAfter * 1000);
      else if (status !== 200) throw new Error(`A's ${path} answered ${status}`);
    }
  };
  const loops = [
    ...Array.from({ length: 2 }, () => loop(close)),
    ...Array.from({ length: 10 }, () => loop(digestA)),
  ];
  await sleep(1000); // A's load under way
  run.digestLoaded.push(...(await repeatFor(seconds, bPair)));
  run.listLoaded.push(...(await repeatFor(seconds, bList)));
  loaded = false;
  await Promise.all(loops);
}

/** The scenario's rows; `label` (a service's, when several ran) begins each. */
export function fairShareRows(run: FairShareRun, compared: Compared, label = ''): ResultRow[] {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const statuses = [...run.aStatuses].map(([status, n]) => `${n}× ${status}`).join(', ');
  const a503 = run.aStatuses.get(503) ?? 0;
  const closes =
    `its close alone ${(run.closeAloneMs / 1000).toFixed(1)} s cold, under load p50 ` +
    `${(p50(run.closeLoaded) / 1000).toFixed(2)} s (${run.closeLoaded.length} answered)`;
  return [
    compared(
      `${label}B's two 92-day digests at once (${run.shopB}), p50 under A vs alone (${run.digestLoaded.length} calls)`,
      percentile(run.digestLoaded, 0.5),
      percentile(run.digestAlone, 0.5),
      ms,
      { atMost: 2 },
    ),
    compared(
      `${label}B's first page of 100 sales, p50 under A vs alone (${run.listLoaded.length} calls)`,
      percentile(run.listLoaded, 0.5),
      percentile(run.listAlone, 0.5),
      ms,
      { atMost: 2 },
    ),
    {
      what: `${label}B's digests under A answered other than 200; A (${run.shopA}: two loops of 92-day closes, ten of 92-day digests) answered ${statuses}; ${closes}`,
      service: `${run.bRefused} B, ${a503} A 503`,
      reference: '',
      ratio: '',
      target: 'none',
      verdict: run.bRefused === 0 && a503 === 0 ? 'pass' : 'FAIL',
    },
  ];
}
