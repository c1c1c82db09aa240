import { setBusinessDateIndex } from './bench-database';
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
 * A's refusals counted by status. One service with the defaults, its limits in Redis.
 */
export interface FairShareRun {
  shopA: string;
  shopB: string;
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
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
/** B's pace: 80 digests a minute, below DIGEST_CALLS_PER_MINUTE (120). */
const PAIR_EVERY_MS = 1500;
const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Runs `once` again and again for `seconds`; the times of its calls. */
async function repeatFor(seconds: number, once: () => Promise<number[]>): Promise<number[]> {
  const times: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) times.push(...(await once()));
  return times;
}

export async function measureFairShare(bench: Bench, service: Target): Promise<FairShareRun> {
  await setBusinessDateIndex(bench.options.databaseUrl, true);
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
  const base = service.baseUrl;
  const run: FairShareRun = {
    shopA,
    shopB,
    digestAlone: [],
    digestLoaded: [],
    listAlone: [],
    listLoaded: [],
    bRefused: 0,
    aStatuses: new Map(),
    a503: new Set(),
  };
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
  // Warm: B's digest in the cache (an integrator's repeated verification), one at a time.
  for (let tries = 0; (await call(base, digestB, b)).status !== 200; tries++) {
    if (tries === 3) throw new Error("B's digest never answered 200 alone");
  }
  await bList();
  const seconds = bench.options.quick ? 3 : 8;
  for (let round = 0; round < bench.options.rounds; round++) {
    run.digestAlone.push(...(await repeatFor(seconds, bPair)));
    run.listAlone.push(...(await repeatFor(seconds, bList)));
    loaded = true;
    const loop = async (path: string) => {
      while (loaded) {
        const { status, retryAfter, detail } = await call(base, path, a);
        run.aStatuses.set(status, (run.aStatuses.get(status) ?? 0) + 1);
        if (status === 503) run.a503.add(`${path.split('?')[0]}: ${detail}`);
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
    bench.say(
      `  round ${round + 1}: B's digest p50 ${percentile(run.digestAlone, 0.5).toFixed(0)} → ` +
        `${percentile(run.digestLoaded, 0.5).toFixed(0)} ms, list p50 ` +
        `${percentile(run.listAlone, 0.5).toFixed(1)} → ${percentile(run.listLoaded, 0.5).toFixed(1)} ms; ` +
        `A: ${JSON.stringify(Object.fromEntries(run.aStatuses))} ${[...run.a503].join('; ')}`,
    );
  }
  return run;
}

export function fairShareRows(run: FairShareRun, compared: Compared): ResultRow[] {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const statuses = [...run.aStatuses].map(([status, n]) => `${n}× ${status}`).join(', ');
  const a503 = run.aStatuses.get(503) ?? 0;
  return [
    compared(
      `B's two 92-day digests at once (${run.shopB}), p50 under A vs alone (${run.digestLoaded.length} calls)`,
      percentile(run.digestLoaded, 0.5),
      percentile(run.digestAlone, 0.5),
      ms,
      { atMost: 2 },
    ),
    compared(
      `B's first page of 100 sales, p50 under A vs alone (${run.listLoaded.length} calls)`,
      percentile(run.listLoaded, 0.5),
      percentile(run.listAlone, 0.5),
      ms,
      { atMost: 2 },
    ),
    {
      what: `B's digests under A answered other than 200; A (${run.shopA}: two loops of 92-day closes, ten of 92-day digests) answered ${statuses}`,
      service: `${run.bRefused} B, ${a503} A 503`,
      reference: '',
      ratio: '',
      target: 'none',
      verdict: run.bRefused === 0 && a503 === 0 ? 'pass' : 'FAIL',
    },
  ];
}
