import { burstRows, digestBurst, integratorRows } from './digest-burst';
import { flushDigestCache, measureDigestCache } from './digest-cache';
import { RssSampler } from './processes';
import { ACTIVE_SHOP, busiestShop, saleWriter, withBenchShops } from './sync-database';
import { idleWaiters, type IdleWaiters, type SyncInput, tokenFor } from './sync-waiters';

/**
 * The sync scenarios of issue 24 (`npm run bench -- --sync`), the service alone:
 * - the 92-day digest of the busiest shop against walking the same 92 days through the list;
 * - another user's pages while one user bursts digests (issue 44; bench/digest-burst.ts);
 * - commit-to-delivery of a consumer waiting on the sales feed (Wait=20) while another
 *   connection commits sales one by one;
 * - statements a second, memory and CPU of the service with 10 and with 1,000 idle waiters.
 */
export interface SyncRow {
  what: string;
  value: string;
  target: string;
  verdict: 'ok' | 'FAIL' | '';
}

interface Body {
  data: Array<{ id: string; count?: number }>;
  nextCursor: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function timed(input: SyncInput, path: string, token = input.token) {
  const started = process.hrtime.bigint();
  const response = await fetch(input.service.baseUrl + path, {
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
  });
  const text = await response.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as Body };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(p * values.length) - 1)];

/** The shop with the most sales, and the first 92 days of the dataset. */
async function busiest(input: SyncInput): Promise<{ shop: string; from: string; to: string }> {
  const shop = await busiestShop(input.databaseUrl);
  const from = input.dataset.from.slice(0, 10);
  const to = new Date(Date.parse(`${from}T00:00:00Z`) + 92 * 86_400_000).toISOString().slice(0, 10);
  return { shop, from, to };
}

async function digestAgainstWalk(input: SyncInput): Promise<SyncRow[]> {
  const { shop, from, to } = await busiest(input);
  const repeats = input.quick ? 1 : 3;
  const digestPath = `/api/v1.0/sales/digest?ShopCode=${shop}&From=${from}&To=${to}`;
  const walk = async () => {
    let path = `/api/v1.0/sales?ShopCode=${shop}&From=${from}&To=${to}`;
    let [ms, records] = [0, 0];
    for (;;) {
      const page = await timed(input, path);
      ms += page.ms;
      records += page.body.data.length;
      if (!page.body.nextCursor) return { ms, records };
      path = `/api/v1.0/sales?Cursor=${encodeURIComponent(page.body.nextCursor)}`;
    }
  };
  const rss = new RssSampler(input.service.pid, 100);
  await timed(input, digestPath); // warm
  rss.enter('digest');
  const digests = [];
  for (let i = 0; i < repeats; i++) {
    // Cold: the checksums of the digest before are not kept (issue 45's cache).
    await flushDigestCache(input.redisPrefix);
    digests.push(await timed(input, digestPath));
  }
  rss.enter('walk');
  const walks = [];
  for (let i = 0; i < repeats; i++) walks.push(await walk());
  rss.stop();
  const counted = digests[0].body.data.reduce((sum, day) => sum + (day.count ?? 0), 0);
  if (counted !== walks[0].records) {
    throw new Error(`the digest counted ${counted} sales, the walk read ${walks[0].records}`);
  }
  const [digestMs, walkMs] = [median(digests.map((d) => d.ms)), median(walks.map((w) => w.ms))];
  const peak = (phase: string) => rss.peakByPhase.get(phase) ?? 0;
  return [
    {
      what: `92-day digest of ${shop} (${counted.toLocaleString('en-US')} sales, ${from} to ${to}), ms`,
      value: digestMs.toFixed(0),
      target: '',
      verdict: '',
    },
    {
      what: 'the same 92 days walked through GET /sales, ms',
      value: walkMs.toFixed(0),
      target: '',
      verdict: '',
    },
    {
      what: 'digest ÷ walk',
      value: (digestMs / walkMs).toFixed(2),
      target: '≤ 0.5',
      verdict: digestMs <= 0.5 * walkMs ? 'ok' : 'FAIL',
    },
    {
      what: 'service RSS peak during the digests / the walks, MB',
      value: `${peak('digest').toFixed(0)} / ${peak('walk').toFixed(0)}`,
      target: '',
      verdict: '',
    },
  ];
}

function cacheRows(f: Awaited<ReturnType<typeof measureDigestCache>>): SyncRow[] {
  const ratio = (ms: number) => ms / f.coldMs;
  return [
    {
      what: `92-day digest, cache empty (cold), ${f.sales.toLocaleString('en-US')} sales, ms`,
      value: f.coldMs.toFixed(0),
      target: '',
      verdict: '',
    },
    {
      what: 'the same repeated, nothing changed: ms; ÷ cold',
      value: `${f.repeatMs.toFixed(0)}; ${ratio(f.repeatMs).toFixed(2)}`,
      target: '≤ 0.1',
      verdict: ratio(f.repeatMs) <= 0.1 ? 'ok' : 'FAIL',
    },
    {
      what: 'the same after one sale of one day changed: ms; ÷ cold',
      value: `${f.oneDayMs.toFixed(0)}; ${ratio(f.oneDayMs).toFixed(2)}`,
      target: '≤ 0.15',
      verdict: ratio(f.oneDayMs) <= 0.15 ? 'ok' : 'FAIL',
    },
    {
      what: 'CPU of the service / of the database server, cold digest; repeated digest, ms',
      value:
        `${f.coldCpu.service} / ${f.coldCpu.database}; ` +
        `${f.repeatCpu.service} / ${f.repeatCpu.database}`,
      target: '',
      verdict: '',
    },
    {
      what: 'rows the database read (global Rows_read), cold / repeated digest',
      value: `${f.coldRowsRead.toLocaleString('en-US')} / ${f.repeatRowsRead.toLocaleString('en-US')}`,
      target: '',
      verdict: '',
    },
  ];
}

/**
 * A consumer on Wait=20 of ACTIVE_SHOP's sales feed while `count` sales are committed one by one,
 * 50-300 ms apart: each sale's commit-to-delivery time, ms (the shops of withBenchShops).
 */
export async function deliveryTimes(input: SyncInput, count: number): Promise<number[]> {
  const token = tokenFor(input, 'bench-consumer', [ACTIVE_SHOP]);
  const feed = (query: string) => timed(input, `/api/v1.0/sales/feed?${query}`, token);
  let cursor = encodeURIComponent((await feed(`ShopCode=${ACTIVE_SHOP}`)).body.nextCursor ?? '');
  const received = new Map<string, number>();
  let writing = true;
  let deadline = Infinity;
  const consumer = (async () => {
    while ((writing || received.size < count) && Date.now() < deadline) {
      const page = await feed(`Cursor=${cursor}&Wait=20`);
      const at = Date.now();
      for (const record of page.body.data) received.set(record.id, at);
      cursor = encodeURIComponent(page.body.nextCursor ?? '');
    }
  })();
  const committed = new Map<string, number>();
  const writer = await saleWriter(input.databaseUrl);
  for (let i = 0; i < count; i++) {
    await sleep(50 + Math.random() * 250);
    const id = await writer.commitSale(`B${i}`);
    committed.set(id, Date.now());
  }
  writing = false;
  deadline = Date.now() + 30_000;
  await writer.end();
  await consumer;
  return [...committed].map(([id, at]) => (received.get(id) ?? Infinity) - at);
}

async function delivery(input: SyncInput): Promise<SyncRow[]> {
  const count = input.quick ? 15 : 150;
  const latencies = await deliveryTimes(input, count);
  const p99 = percentile(latencies, 0.99);
  return [
    {
      what: `commit to delivery, one consumer on Wait=20, ${count} sales committed 50-300 ms apart: p50 / p99 / max, ms`,
      value: `${percentile(latencies, 0.5)} / ${p99} / ${Math.max(...latencies)}`,
      target: 'p99 ≤ 1000',
      verdict: p99 <= 1000 ? 'ok' : 'FAIL',
    },
  ];
}

function waiterRows(few: IdleWaiters, many: IdleWaiters): SyncRow[] {
  const ratio = many.queriesPerSecond / Math.max(few.queriesPerSecond, 1e-9);
  return [
    {
      what:
        `statements a second sent by the service, ${few.waiters} / ${many.waiters} idle waiters ` +
        `(counted once all were held: after ${few.arrivalSeconds.toFixed(1)} / ` +
        `${many.arrivalSeconds.toFixed(1)} s)`,
      value: `${few.queriesPerSecond.toFixed(2)} / ${many.queriesPerSecond.toFixed(2)}`,
      target: '',
      verdict: '',
    },
    {
      what: `statements a second, ${many.waiters} ÷ ${few.waiters} waiters`,
      value: ratio.toFixed(2),
      target: '≤ 1.1',
      verdict: ratio <= 1.1 ? 'ok' : 'FAIL',
    },
    {
      what: `resident memory added by ${many.waiters} idle waiters, MB`,
      value: many.rssAddedMb.toFixed(1),
      target: '< 50',
      verdict: many.rssAddedMb < 50 ? 'ok' : 'FAIL',
    },
    {
      what: `service CPU while ${few.waiters} / ${many.waiters} waiters idle, % of a core`,
      value: `${few.cpuPercentOfCore.toFixed(1)} / ${many.cpuPercentOfCore.toFixed(1)}`,
      target: '< 5 (1,000)',
      verdict: many.cpuPercentOfCore < 5 ? 'ok' : 'FAIL',
    },
  ];
}

export async function measureSync(input: SyncInput): Promise<SyncRow[]> {
  if (input.digestCacheOnly) {
    input.say('  the digest cache: cold, repeated, one day changed…');
    return cacheRows(await measureDigestCache(input, input.redisPrefix));
  }
  input.say('  the 92-day digest against the list walk…');
  const rows = await digestAgainstWalk(input);
  input.say("  one user's burst of digests against another user's pages…");
  const budgeted = await digestBurst(input);
  const baselines = [];
  if (input.startWith) {
    const without = { DIGEST_CACHE_TTL_SECONDS: '0' };
    const neither = {
      ...without,
      DIGEST_MAX_IN_FLIGHT: '1000',
      DIGEST_MAX_IN_FLIGHT_PER_USER: '1000',
      DIGEST_CALLS_PER_MINUTE: '100000',
    };
    for (const env of [without, neither]) {
      input.say(`  the same burst on a service with ${JSON.stringify(env)}…`);
      const service = await input.startWith(env);
      try {
        baselines.push(await digestBurst(input, service));
      } finally {
        await service.stop();
      }
    }
  }
  rows.push(...burstRows(budgeted, baselines[0], baselines[1]));
  input.say('  the digest cache: cold, repeated, one day changed…');
  rows.push(...cacheRows(await measureDigestCache(input, input.redisPrefix)));
  input.say("  10 users' digests against another user's pages…");
  rows.push(...integratorRows(await digestBurst(input, input.service, 10, 1)));
  if (input.digestsOnly) return rows;
  await withBenchShops(input.databaseUrl, async () => {
    input.say('  commit to delivery of a waiting consumer…');
    rows.push(...(await delivery(input)));
    input.say('  10 idle waiters…');
    const few = await idleWaiters(input, 10);
    input.say('  1,000 idle waiters…');
    const many = await idleWaiters(input, 1000);
    rows.push(...waiterRows(few, many));
    if (input.freshService) rows.push(await onFreshService(input, input.freshService));
  });
  return rows;
}

/**
 * The same 1,000 waiters on a service that served nothing but 10 waiters before them: what they
 * add to a heap the digests and walks have not already grown, the upper bound of the two.
 */
async function onFreshService(
  input: SyncInput,
  start: NonNullable<SyncInput['freshService']>,
): Promise<SyncRow> {
  input.say('  1,000 idle waiters on a fresh service…');
  const fresh = await start();
  try {
    const on = { ...input, service: fresh, managementUrl: fresh.managementUrl ?? '' };
    await idleWaiters(on, 10);
    const many = await idleWaiters(on, 1000);
    return {
      what: `resident memory added by ${many.waiters} idle waiters on a fresh service (after 10), MB`,
      value: many.rssAddedMb.toFixed(1),
      target: '< 50',
      verdict: many.rssAddedMb < 50 ? 'ok' : 'FAIL',
    };
  } finally {
    await fresh.stop();
  }
}

export function syncTable(rows: SyncRow[]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(['scenario', 'measured', 'target', '']),
    line(['---', '---:', '---', '---']),
    ...rows.map((r) => line([r.what, r.value, r.target, r.verdict])),
  ].join('\n');
}
