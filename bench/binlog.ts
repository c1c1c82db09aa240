import { createConnection } from 'mysql2/promise';
import { startBinlogServer } from '../test/operations/support/mariadb-replication';
import { binlogAccount } from '../test/digests/support/binlog-database';
import { prepareDatabase } from './bench-database';
import { fairShareBesideLog } from './binlog-fair-share';
import { BINLOG_DATASET } from './bench-dataset';
import type { BenchOptions } from './bench-options';
import { type BurstResult, digestBurst, percentile } from './digest-burst';
import {
  BENCH_REDIS_URL,
  type DigestCacheFigures,
  flushDigestCache,
  forgetKeys,
  measureDigestCache,
} from './digest-cache';
import { busiestShop, withBenchShops } from './sync-database';
import { deliveryTimes, type SyncRow, syncTable } from './sync';
import { BENCH_KEY_ID, type SyncInput, tokenFor } from './sync-waiters';
import { PRODUCTION_RUNTIME } from './runtime';
import { type SharedSecrets, startService, type Target } from './targets';

/**
 * `--binlog` (issue 57, item 8): the change source's targets, on a MariaDB of the bench's own
 * with its binary log on (row format, full images: test/operations/support/mariadb-replication.ts
 * starts it in a temporary directory, as the specs do), seeded with BINLOG_DATASET. Its service
 * follows the log (BINLOG_DATABASE_URL, the account of sql/binlog-account.sql) with its cache in
 * Redis; a second service on the same database without the log is the baseline (fingerprints).
 * The server is the bench's alone, so its global Rows_read counts the service's reads only.
 * Then issue 54's fair share with the log followed and without it (bench/binlog-fair-share.ts);
 * `--binlog --only fairshare` runs that alone.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function metric(service: Target, name: string): Promise<number> {
  const text = await service.metrics!();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(' ').pop()) : NaN;
}

async function following(service: Target): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!/^pos_api_binlog_state\{state="following"\} 1$/m.test(await service.metrics!())) {
    if (Date.now() > deadline) throw new Error('the service did not follow the binary log in 60 s');
    await sleep(200);
  }
}

async function get(service: Target, path: string, token: string) {
  const started = process.hrtime.bigint();
  const response = await fetch(service.baseUrl + path, {
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, text };
}

/** The busiest shop's first 92 days, as measureDigestCache and digestBurst ask them. */
async function digestPath(input: SyncInput): Promise<string> {
  const shop = await busiestShop(input.databaseUrl);
  const from = input.dataset.from.slice(0, 10);
  const to = new Date(Date.parse(`${from}T00:00:00Z`) + 92 * 86_400_000).toISOString().slice(0, 10);
  return `/api/v1.0/sales/digest?ShopCode=${shop}&From=${from}&To=${to}`;
}

/** The 92-day day close of the busiest shop, its cache emptied (cold) and then repeated. */
async function dayCloses(input: SyncInput, service: Target, prefix: string) {
  const shop = await busiestShop(input.databaseUrl);
  const from = input.dataset.from.slice(0, 10);
  const to = new Date(Date.parse(`${from}T00:00:00Z`) + 92 * 86_400_000).toISOString().slice(0, 10);
  const path = `/api/v1.0/business-days?ShopCode=${shop}&From=${from}&To=${to}`;
  const [cold, repeat]: number[][] = [[], []];
  await get(service, path, input.token); // warm
  for (let i = 0; i < (input.quick ? 1 : 3); i++) {
    await flushDigestCache(prefix);
    const first = await get(service, path, input.token);
    const again = await get(service, path, input.token);
    if (again.text !== first.text) throw new Error('a repeated day close answered otherwise');
    cold.push(first.ms);
    repeat.push(again.ms);
  }
  return { coldMs: median(cold), repeatMs: median(repeat) };
}

/**
 * Row changes at `rate` a second for `seconds` (UPDATEs of 1/10 of it every 100 ms, of the
 * other shop's payments), and the follower's distance from the primary sampled twice a second by
 * a cached 1-day digest (its barrier measures it: pos_api_binlog_seconds_behind). The largest.
 */
async function burst(input: SyncInput, service: Target, rate: number, seconds: number) {
  const shop = await busiestShop(input.databaseUrl);
  const other = input.dataset.shopCodes.find((code) => code !== shop)!;
  const db = await createConnection(input.databaseUrl);
  const [rows] = await db.query('SELECT id FROM pos_payments WHERE shop_code = ? ORDER BY id', [
    other,
  ]);
  const ids = (rows as Array<{ id: number }>).map((r) => Number(r.id));
  const from = input.dataset.from.slice(0, 10);
  const to = new Date(Date.parse(`${from}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const probe = `/api/v1.0/sales/digest?ShopCode=${shop}&From=${from}&To=${to}`;
  await get(service, probe, input.token);
  const rowsBefore = await metric(service, 'pos_api_binlog_rows_total');
  // A tenth of the rate every 100 ms, and a tenth more: a tick that starts late must not leave
  // the second short of the rate.
  const per = Math.round(rate / 10) + Math.round(rate / 100);
  let written = 0;
  let behind = 0;
  let writing = true;
  const started = Date.now();
  const writer = (async () => {
    for (let tick = 0; tick < seconds * 10; tick++) {
      const at = started + tick * 100;
      if (Date.now() < at) await sleep(at - Date.now());
      const start = (tick * per) % Math.max(ids.length - per, 1);
      const [result] = await db.query(
        'UPDATE pos_payments SET reference = ? WHERE id BETWEEN ? AND ? AND shop_code = ?',
        [`BURST-${tick}`, ids[start], ids[start + per - 1], other],
      );
      written += (result as { affectedRows: number }).affectedRows;
    }
    writing = false;
  })();
  while (writing) {
    await get(service, probe, input.token);
    behind = Math.max(behind, await metric(service, 'pos_api_binlog_seconds_behind'));
    await sleep(500);
  }
  await writer;
  const elapsed = (Date.now() - started) / 1000;
  await get(service, probe, input.token);
  behind = Math.max(behind, await metric(service, 'pos_api_binlog_seconds_behind'));
  const read = (await metric(service, 'pos_api_binlog_rows_total')) - rowsBefore;
  await db.end();
  return { perSecond: written / elapsed, read, behind };
}

function rows(
  log: DigestCacheFigures,
  plain: DigestCacheFigures,
  close: { coldMs: number; repeatMs: number },
  integrators: [budgeted: BurstResult, lifted: BurstResult, control: BurstResult],
  wake: { log: number[]; polled: number[] },
  flood: { perSecond: number; read: number; behind: number },
): SyncRow[] {
  const ms = (v: number) => v.toFixed(v < 10 ? 1 : 0);
  const ratio = (a: number, b: number) => (a / b).toFixed(3);
  const verdict = (ok: boolean) => (ok ? 'ok' : 'FAIL') as SyncRow['verdict'];
  const [p50, p99] = [percentile(wake.log, 0.5), percentile(wake.log, 0.99)];
  return [
    {
      what: `92-day digest, ${log.sales.toLocaleString('en-US')} sales: cold / repeated, log followed, ms; ratio`,
      value: `${ms(log.coldMs)} / ${ms(log.repeatMs)}; ${ratio(log.repeatMs, log.coldMs)}`,
      target: '≤ 0.02',
      verdict: verdict(log.repeatMs <= 0.02 * log.coldMs),
    },
    {
      what: 'rows the server read (global Rows_read), cold / repeated digest; ratio',
      value: `${log.coldRowsRead.toLocaleString('en-US')} / ${log.repeatRowsRead.toLocaleString('en-US')}; ${ratio(log.repeatRowsRead, log.coldRowsRead)}`,
      target: '< 0.01',
      verdict: verdict(log.repeatRowsRead < 0.01 * log.coldRowsRead),
    },
    {
      what: 'the same digest after one sale of one day changed, log followed, ms; ÷ cold',
      value: `${ms(log.oneDayMs)}; ${ratio(log.oneDayMs, log.coldMs)}`,
      target: '≤ 0.05',
      verdict: verdict(log.oneDayMs <= 0.05 * log.coldMs),
    },
    {
      what: 'without the log (the SHA-256 fingerprints): cold / repeated digest, ms; ratio (CRC-32 sum, issue 45: 0.27)',
      value: `${ms(plain.coldMs)} / ${ms(plain.repeatMs)}; ${ratio(plain.repeatMs, plain.coldMs)}`,
      target: '≤ 0.5',
      verdict: verdict(plain.repeatMs <= 0.5 * plain.coldMs),
    },
    {
      what: '92-day day close, cold / repeated, log followed, ms; ratio',
      value: `${ms(close.coldMs)} / ${ms(close.repeatMs)}; ${ratio(close.repeatMs, close.coldMs)}`,
      target: '≤ 0.05',
      verdict: verdict(close.repeatMs <= 0.05 * close.coldMs),
    },
    ...integrators.map((burst, i) => {
      const [alone, under] = [percentile(burst.alone, 0.99), percentile(burst.burst, 0.99)];
      return {
        what:
          `another user's first page of 100 sales while 10 users ${
            [
              'repeat the 92-day digest at once, log followed, the budget of calls as deployed',
              'do the same, that budget lifted',
              'ask GET /shops at once instead (the control: 10 loops of any cheap call)',
            ][i]
          } (${burst.answered} answered, ${burst.refused} refused 429, ${burst.overdue} 503): ` +
          'p99 alone / under them, ms; ratio',
        value: `${ms(alone)} / ${ms(under)}; ${(under / alone).toFixed(2)}`,
        target: i === 0 ? '≤ 1.5' : '',
        verdict: i === 0 ? verdict(under / alone <= 1.5) : '',
      };
    }),
    {
      what: `commit to a waiting feed's answer, ${wake.log.length} sales: p50 / p99, ms, log followed (polled: p50 / p99)`,
      value: `${p50} / ${p99} (${percentile(wake.polled, 0.5)} / ${percentile(wake.polled, 0.99)})`,
      target: 'p50 ≤ 50, p99 ≤ 200',
      verdict: verdict(p50 <= 50 && p99 <= 200),
    },
    {
      what: `a burst of row changes: written a second; rows the follower read; most seconds behind`,
      value: `${Math.round(flood.perSecond).toLocaleString('en-US')}; ${flood.read.toLocaleString('en-US')}; ${flood.behind.toFixed(2)}`,
      target: '≥ 5,000 a second, ≤ 1 s behind',
      verdict: verdict(flood.perSecond >= 5000 && flood.behind <= 1),
    },
  ];
}

export async function runBinlog(
  options: BenchOptions,
  secrets: SharedSecrets,
  say: (line: string) => void,
): Promise<void> {
  say('Starting a MariaDB of its own with the binary log on…');
  const database = 'posapi_bench_binlog';
  const server = await startBinlogServer(database);
  const redisPrefix = `bench-binlog-${process.pid}:`;
  const services: Target[] = [];
  try {
    const dataset = await prepareDatabase(server.adminUrl, BINLOG_DATASET, say);
    const binlogUrl = await binlogAccount(server, database);
    const runtime = options.plainRuntime ? {} : PRODUCTION_RUNTIME;
    const start = async (env: Record<string, string>) => {
      const service = await startService(server.adminUrl, secrets, runtime, [], {
        JWT_KEY_ID: BENCH_KEY_ID,
        REDIS_URL: BENCH_REDIS_URL,
        ...env,
      });
      services.push(service);
      return service;
    };
    const fairShare = () =>
      fairShareBesideLog({
        options,
        databaseUrl: server.adminUrl,
        dataset,
        binlogUrl,
        redisPrefix,
        start,
        following,
        forge: (sub, shops) => tokenFor({ secrets }, sub, shops),
        say,
      });
    if (options.only.includes('fairshare')) return await fairShare();
    // The digests' budget of calls as deployed (DIGEST_CALLS_PER_MINUTE, 120 a user); its rows a
    // minute lifted, which the cold reads of the scenarios below would pass.
    const followingLog = { REDIS_KEY_PREFIX: redisPrefix, BINLOG_DATABASE_URL: binlogUrl };
    const logged = await start({ ...followingLog, DIGEST_ROWS_PER_MINUTE: '1000000000' });
    await following(logged);
    const input: SyncInput = {
      service: logged,
      managementUrl: logged.managementUrl ?? '',
      token: tokenFor({ secrets }, dataset.user.id, dataset.shopCodes),
      dataset,
      databaseUrl: server.adminUrl,
      secrets,
      quick: options.quick,
      say,
      redisPrefix,
    };
    say('  the digest: cold, repeated, one day changed, log followed…');
    const log = await measureDigestCache(input, redisPrefix);
    say('  the day close: cold, repeated…');
    const close = await dayCloses(input, logged, redisPrefix);
    say("  10 users' repeated digests against another user's pages…");
    await get(logged, await digestPath(input), input.token); // the 92 days cached again
    const budgeted = await digestBurst(input, logged, 10, 1);
    const count = options.quick ? 15 : 150;
    say('  commit to a waiting feed, woken by the log…');
    const wakeLog = await withBenchShops(server.adminUrl, () => deliveryTimes(input, count));
    say('  a burst of row changes…');
    const flood = await burst(input, logged, 5000, options.quick ? 3 : 10);
    await logged.stop();
    // The same 10 users with the budget of calls lifted: as many repeats as the service answers.
    // It takes the lease over at once, in the same epoch: the 92 days stay cached.
    say("  the same 10 users' digests, the budget of calls lifted…");
    const lifted = await start({
      ...followingLog,
      DIGEST_CALLS_PER_MINUTE: '100000',
      DIGEST_ROWS_PER_MINUTE: '1000000000',
    });
    await following(lifted);
    await get(lifted, await digestPath(input), input.token);
    const unbudgeted = await digestBurst(input, lifted, 10, 1);
    // The control: the same 10 loops asking the cheapest authenticated route (the shop list).
    say("  the control: 10 users' loops of GET /shops…");
    const control = await digestBurst(input, lifted, 10, 1, '/api/v1.0/shops');
    await lifted.stop();
    const plainPrefix = `${redisPrefix}plain:`;
    const plain = await start({
      REDIS_KEY_PREFIX: plainPrefix,
      DIGEST_CALLS_PER_MINUTE: '100000',
      DIGEST_ROWS_PER_MINUTE: '1000000000',
    });
    const onPlain = {
      ...input,
      service: plain,
      managementUrl: plain.managementUrl ?? '',
      redisPrefix: plainPrefix,
    };
    say('  without the log: the digest cold and repeated, commit to a polled feed…');
    const fingerprints = await measureDigestCache(onPlain, plainPrefix);
    const wakePolled = await withBenchShops(server.adminUrl, () => deliveryTimes(onPlain, count));
    say(
      syncTable(
        rows(
          log,
          fingerprints,
          close,
          [budgeted, unbudgeted, control],
          { log: wakeLog, polled: wakePolled },
          flood,
        ),
      ),
    );
    await plain.stop();
    await fairShare();
  } finally {
    for (const service of services) await service.stop().catch(() => undefined);
    await forgetKeys(`${redisPrefix}*`).catch(() => undefined);
    await server.close();
  }
}
