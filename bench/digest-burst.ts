import { busiestShop } from './sync-database';
import { tokenFor, type SyncInput } from './sync-waiters';
import type { Started } from './processes';

/**
 * Issue 44, 2: one user's burst of digests against another user's pages. A lister (its own user,
 * another shop) reads the first page of 100 sales over and over, one call at a time: alone, then
 * while a second user keeps 12 digests of the busiest shop's first 92 days asked at once (each
 * of the 12 loops asks again as soon as it is answered, or after Retry-After when refused), in
 * alternating slices (3 of 5 s each; 1 of 3 s with --quick). The
 * lister's p99 under the burst against alone is the target (≤ 1.5×). The same burst on a service
 * without the budget (in flight and a minute's calls set out of reach) is the baseline.
 */
export interface BurstResult {
  alone: number[];
  burst: number[];
  answered: number;
  refused: number;
  /** 503: the instance's digests at once (DIGEST_MAX_IN_FLIGHT), or the request's deadline. */
  overdue: number;
}

const BURST = 12;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const percentile = (values: number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(p * values.length) - 1)];

const detailOf = (body: string): string => {
  try {
    const { detail } = JSON.parse(body) as { detail?: unknown };
    return typeof detail === 'string' ? detail : '';
  } catch {
    return body.slice(0, 200);
  }
};

/** One call of `path` as `token`, its body read: status, Retry-After and milliseconds. */
export async function call(base: string, path: string, token: string) {
  const started = process.hrtime.bigint();
  const response = await fetch(base + path, {
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
  });
  const body = await response.text();
  return {
    status: response.status,
    retryAfter: Number(response.headers.get('retry-after') ?? '1'),
    ms: Number(process.hrtime.bigint() - started) / 1e6,
    /** A refusal's problem detail, to tell one limit from another. */
    detail: response.status >= 400 ? detailOf(body) : '',
  };
}

/** Calls `path` one after another for `seconds`; each call's time, all of them 200. */
async function listFor(base: string, path: string, token: string, seconds: number) {
  const times: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const { status, ms } = await call(base, path, token);
    if (status !== 200) throw new Error(`the lister's page answered ${status}`);
    times.push(ms);
  }
  return times;
}

/** `users` users asking `each` digests at once each (one user and 12; or 10 users and 1). */
export async function digestBurst(
  input: SyncInput,
  service: Pick<Started, 'baseUrl'> = input.service,
  users = 1,
  each = BURST,
  /** What the users ask instead of the busiest shop's 92-day digest (a control). */
  asked?: string,
): Promise<BurstResult> {
  const [rounds, seconds] = input.quick ? [1, 3] : [3, 5];
  const shop = await busiestShop(input.databaseUrl);
  const other = input.dataset.shopCodes.find((code) => code !== shop) ?? shop;
  const from = input.dataset.from.slice(0, 10);
  const to = new Date(Date.parse(`${from}T00:00:00Z`) + 92 * 86_400_000).toISOString().slice(0, 10);
  const digest = asked ?? `/api/v1.0/sales/digest?ShopCode=${shop}&From=${from}&To=${to}`;
  const page = `/api/v1.0/sales?ShopCode=${other}&From=${input.dataset.from}&To=${input.dataset.to}&Limit=100`;
  const lister = tokenFor(input, 'bench-lister', [other]);
  const digesters = Array.from({ length: users }, (_, u) =>
    tokenFor(input, `bench-digester-${u}`, [shop]),
  );
  await listFor(service.baseUrl, page, lister, 1); // warm
  const [alone, burst]: number[][] = [[], []];
  let [answered, refused, overdue] = [0, 0, 0];
  // Alone and under the burst in alternating slices: whatever else the machine does weighs on both.
  for (let round = 0; round < rounds; round++) {
    alone.push(...(await listFor(service.baseUrl, page, lister, seconds)));
    let bursting = true;
    const loop = async (digester: string) => {
      while (bursting) {
        const { status, retryAfter } = await call(service.baseUrl, digest, digester);
        if (status === 200) answered++;
        else if (status === 429 || status === 503) {
          // 429: the user's budget; 503: the instance's digests at once, or past the deadline.
          if (status === 429) refused++;
          else overdue++;
          await sleep(retryAfter * 1000);
        } else throw new Error(`a digest of the burst answered ${status}`);
      }
    };
    const loops = digesters.flatMap((digester) =>
      Array.from({ length: each }, () => loop(digester)),
    );
    await sleep(500); // the burst under way
    burst.push(...(await listFor(service.baseUrl, page, lister, seconds)));
    bursting = false;
    await Promise.all(loops);
  }
  return { alone, burst, answered, refused, overdue };
}

/** The rows of the 10 integrators' scenario (issue 45): the lister's p99 against alone. */
export function integratorRows(result: BurstResult) {
  const ratio = percentile(result.burst, 0.99) / percentile(result.alone, 0.99);
  return [
    {
      what:
        `another user's first page of 100 sales while 10 users each digest the same 92 days ` +
        `again and again (${result.answered} answered, ${result.overdue} 503): p99 alone / ` +
        `under them, ms; ratio`,
      value:
        `${percentile(result.alone, 0.99).toFixed(1)} / ` +
        `${percentile(result.burst, 0.99).toFixed(1)}; ${ratio.toFixed(2)}`,
      target: '≤ 1.5',
      verdict: ratio <= 1.5 ? ('ok' as const) : ('FAIL' as const),
    },
  ];
}

export function burstRows(budgeted: BurstResult, uncached?: BurstResult, neither?: BurstResult) {
  const p = (values: number[], q: number) => percentile(values, q).toFixed(1);
  const ratio = (r: BurstResult) => percentile(r.burst, 0.99) / percentile(r.alone, 0.99);
  const rows = [
    {
      what: "another user's first page of 100 sales, alone: p50 / p99, ms",
      value: `${p(budgeted.alone, 0.5)} / ${p(budgeted.alone, 0.99)}`,
      target: '',
      verdict: '' as const,
    },
    {
      what:
        `the same while one user asks ${BURST} 92-day digests at once, again and again ` +
        `(${budgeted.answered} answered, ${budgeted.refused} refused 429): p50 / p99, ms`,
      value: `${p(budgeted.burst, 0.5)} / ${p(budgeted.burst, 0.99)}`,
      target: '',
      verdict: '' as const,
    },
    {
      what: "the lister's p99 under the burst ÷ alone",
      value: ratio(budgeted).toFixed(2),
      target: '≤ 1.5',
      verdict: ratio(budgeted) <= 1.5 ? ('ok' as const) : ('FAIL' as const),
    },
  ];
  const baseline = (r: BurstResult | undefined, what: string) => {
    if (!r) return;
    rows.push({
      what:
        `${what} (${r.answered} answered, ${r.refused} refused 429, ${r.overdue} 503): ` +
        `the lister's p50 / p99, ms; p99 ÷ alone`,
      value: `${p(r.burst, 0.5)} / ${p(r.burst, 0.99)}; ${ratio(r).toFixed(2)}`,
      target: '',
      verdict: '',
    });
  };
  baseline(uncached, 'the same burst, budget without the cache (DIGEST_CACHE_TTL_SECONDS=0)');
  baseline(neither, 'baseline: the same burst with neither budget nor cache');
  return rows;
}
