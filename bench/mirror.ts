import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import { PosReadClient } from '../packages/client/src/index';
import { run as posRead } from '../packages/client/src/cli/run';
import { prepareDatabase, setRecommendedIndexes } from './bench-database';
import { type Dataset, LONG_DATASET } from './bench-dataset';
import { addDays } from '../tools/seed/seed-format';
import type { BenchOptions } from './bench-options';
import {
  measurePeriodMemory,
  measureRawFloor,
  memoryTable,
  type PeriodMemory,
  type RawFloor,
} from './bulk';
import type { Started } from './processes';
import { PRODUCTION_RUNTIME } from './runtime';
import { type SharedSecrets, startService } from './targets';

/**
 * `--mirror`: the first mirror of one shop's year (`client.mirror`, one pass: the history by the
 * bulk read into SQLite, then the feeds from its hand-over and the 35-day window's digests)
 * against the floor (bench/raw-stream.ts: mysql2 into an NDJSON file) and `pos-read export` of the
 * same shop's three resources (NDJSON files, then Parquet), in the same run; the peak memory of
 * the service and of the client for a year against three years (LONG_DATASET, in a database of
 * its own: longDatabaseUrl); then, with nothing written to the database,
 * an idle `follow` (feeds held with Wait) for `followSeconds`, counting its requests by kind,
 * against the baseline of the same three feeds polled once a second without Wait (the delivery
 * delay Wait gives) for as long. Service only: what is compared is the client's work.
 */
export interface MirrorBench {
  shop: string;
  /** The floor: mysql2 straight into an NDJSON file (bench/raw-stream.ts), the faster run. */
  raw: RawFloor;
  /** Its two runs, before the exports and after the copies: MariaDB's cache moves it. */
  rawRuns: RawFloor[];
  exportRecords: number;
  exportSeconds: number;
  parquetRecords: number;
  parquetSeconds: number;
  /** Peak RSS of the service and the client, a short period against the year. */
  memory: PeriodMemory[];
  mirrorRecords: number;
  mirrorLines: number;
  mirrorSeconds: number;
  daysChecked: number;
  followSeconds: number;
  /** Every request of the idle follow in followSeconds, and its feed calls among them. */
  followRequests: number;
  followFeedCalls: number;
  /** Digest calls of one reconciliation of the window (counted in the first pass). */
  reconcileCalls: number;
  /** Requests of the baseline: the three feeds polled once a second, no Wait. */
  pollingRequests: number;
  /** The first pass and an idle follow into each target, SQLite first (issue 43). */
  targets: TargetFigures[];
}

/** One target's first pass (records a second) and idle follow (requests and client CPU a minute). */
export interface TargetFigures {
  target: 'SQLite' | 'PostgreSQL' | 'MariaDB';
  records: number;
  seconds: number;
  idleSeconds: number;
  idleRequests: number;
  /** CPU of the bench process (the client and its driver) over the idle follow, ms. */
  idleCpuMs: number;
}

/** Where the PostgreSQL target's databases are made: a server the bench may CREATE DATABASE on. */
export const BENCH_POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh, empty database on a server, as a mirror's `--into`, and how to drop it. */
async function freshDatabase(
  kind: 'PostgreSQL' | 'MariaDB',
  serverUrl: string,
): Promise<{ into: string; drop(): Promise<void> }> {
  const name = `bench_mirror_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    if (kind === 'PostgreSQL') {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    } else {
      const connection = await createConnection({ uri: serverUrl });
      try {
        await connection.query(sql);
      } finally {
        await connection.end();
      }
    }
  };
  const quoted = kind === 'PostgreSQL' ? name : `\`${name}\``;
  await admin(`CREATE DATABASE ${quoted}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    into: url.toString(),
    drop: () =>
      admin(`DROP DATABASE IF EXISTS ${quoted}${kind === 'PostgreSQL' ? ' WITH (FORCE)' : ''}`),
  };
}

/** The wait and reconciliation period of the follow measured: client.mirror's defaults. */
const FOLLOW_WAIT_SECONDS = 20;
const RECONCILE_EVERY_SECONDS = 300;
const POLL_EVERY_MS = 1000;
/** How long each target's idle follow is measured (after 5 s for its own first pass). */
const TARGET_IDLE_SECONDS = 30;
const RESOURCES = ['sales', 'payments', 'cash-movements'] as const;

type Kind = 'feed' | 'digest' | 'other';
const kindOf = (request: Parameters<typeof fetch>[0]): Kind => {
  const url = typeof request === 'string' ? request : 'url' in request ? request.url : request.href;
  const pathname = new URL(url).pathname;
  return pathname.endsWith('/feed') ? 'feed' : pathname.endsWith('/digest') ? 'digest' : 'other';
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The feeds' cursors the mirror stored: where a poller that is caught up starts. */
async function storedCursors(into: string, shop: string): Promise<Record<string, string>> {
  const { loadSqliteDriver } = await import('../packages/client/src/mirror/sqlite-driver');
  const Database = await loadSqliteDriver();
  const db = new Database(into, { readonly: true, fileMustExist: true });
  try {
    const cursor = db.prepare('SELECT value FROM mirror_state WHERE key = ?').pluck();
    return Object.fromEntries(
      RESOURCES.map((r) => [r, cursor.get(`cursor:${r}:${shop}`) as string]),
    );
  } finally {
    db.close();
  }
}

/**
 * The baseline: each feed polled from its stored cursor (caught up, so each poll is one empty
 * call), then a pause of POLL_EVERY_MS, for `seconds`; returns nothing, the fetch counts.
 */
async function pollWithoutWait(
  client: PosReadClient,
  cursors: Record<string, string>,
  seconds: number,
): Promise<void> {
  const until = Date.now() + seconds * 1000;
  const feeds = {
    sales: client.sales,
    payments: client.payments,
    'cash-movements': client.cashMovements,
  };
  await Promise.all(
    RESOURCES.map(async (resource) => {
      let cursor = cursors[resource];
      while (Date.now() < until) {
        const poll = feeds[resource].feed({ cursor, prefetch: false });
        for await (const page of poll.pages()) cursor = page.nextCursor;
        await sleep(Math.min(POLL_EVERY_MS, Math.max(0, until - Date.now())));
      }
    }),
  );
}

/** The three years' database: the benchmark's name with `_long`, on the same server. */
function longDatabaseUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname.replace(/\/$/, '')}_long`;
  return url.toString();
}

const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

/** `pos-read export` of the walk shop's year, each resource: NDJSON files, or Parquet folders. */
async function exportShop(
  service: Started,
  dataset: Dataset,
  dir: string,
  format: 'ndjson' | 'parquet' = 'ndjson',
): Promise<number> {
  let records = 0;
  for (const resource of ['sales', 'payments', 'cash-movements']) {
    const out = path.join(dir, `${resource}.${format}`);
    const stderr = new PassThrough();
    // The year as one shop's period: the bulk read (Parquet: its business dates).
    const period =
      format === 'parquet'
        ? [
            '--format',
            'parquet',
            '--from',
            dataset.from.slice(0, 10),
            '--to',
            dataset.to.slice(0, 10),
          ]
        : ['--from', dataset.from, '--to', dataset.to];
    const code = await posRead(
      [
        'export',
        resource,
        '--shop',
        dataset.walkShop,
        ...period,
        '--out',
        out,
        '--base-url',
        service.baseUrl,
      ],
      {
        env: { POS_READ_USERNAME: dataset.user.username, POS_READ_PASSWORD: dataset.user.password },
        stdin: Readable.from([]),
        stdout: new PassThrough(),
        stderr,
      },
    );
    if (code !== 0) throw new Error(`pos-read export ${resource} exited ${code}`);
    if (format === 'parquet') {
      records += Number(
        /^(\d[\d,]*) records? in /m.exec(String(stderr.read() ?? ''))?.[1]?.replace(/,/g, '') ?? 0,
      );
      rmSync(out, { recursive: true, force: true });
    } else {
      records += readFileSync(out, 'utf8').split('\n').length - 1;
      rmSync(out);
    }
  }
  return records;
}

export async function measureMirror(input: {
  service: Started;
  dataset: Dataset;
  followSeconds: number;
  /** The benchmark's MariaDB/MySQL database: its server takes the MariaDB target's database. */
  databaseUrl: string;
  secrets: SharedSecrets;
  say(line: string): void;
}): Promise<MirrorBench> {
  const { service, dataset, say } = input;
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-mirror-'));
  const requests = { feed: 0, digest: 0, other: 0 };
  const total = () => requests.feed + requests.digest + requests.other;
  const counting: typeof fetch = (request, init) => {
    requests[kindOf(request)]++;
    return fetch(request, init);
  };
  const client = new PosReadClient({
    baseUrl: service.baseUrl,
    username: dataset.user.username,
    password: dataset.user.password,
    fetch: counting,
  });
  try {
    say(`The floor: ${dataset.walkShop}'s year from MariaDB by mysql2 into an NDJSON file…`);
    const rawRuns = [await measureRawFloor(input.databaseUrl, dataset, dir)];
    say(`pos-read export of ${dataset.walkShop}'s sales, payments and cash movements…`);
    let started = process.hrtime.bigint();
    const exportRecords = await exportShop(service, dataset, dir);
    const exportSeconds = seconds(started);
    say(`pos-read export --format parquet of the same…`);
    started = process.hrtime.bigint();
    const parquetRecords = await exportShop(service, dataset, dir, 'parquet');
    const parquetSeconds = seconds(started);
    say(`client.mirror of ${dataset.walkShop}, one pass…`);
    const into = path.join(dir, 'mirror.sqlite');
    started = process.hrtime.bigint();
    const digestsBefore = requests.digest;
    const pass = await client.mirror({ into, shops: [dataset.walkShop] });
    const mirrorSeconds = seconds(started);
    // One pass reconciles the window once: its digest calls are what a reconciliation costs.
    const reconcileCalls = requests.digest - digestsBefore;
    say(`An idle follow (Wait ${FOLLOW_WAIT_SECONDS} s) for ${input.followSeconds} s…`);
    const controller = new AbortController();
    const following = client
      .mirror({
        into,
        shops: [dataset.walkShop],
        follow: true,
        wait: FOLLOW_WAIT_SECONDS,
        reconcileEvery: RECONCILE_EVERY_SECONDS,
        signal: controller.signal,
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    // The follow's own first pass (nothing to read) is left out: counted from 5 s on.
    await sleep(5000);
    const [beforeAll, beforeFeeds] = [total(), requests.feed];
    await sleep(input.followSeconds * 1000);
    const followRequests = total() - beforeAll;
    const followFeedCalls = requests.feed - beforeFeeds;
    controller.abort();
    const failed = await following;
    if (failed)
      say(
        `The follow failed, its figure is not valid: ${failed instanceof Error ? failed.message : '?'}`,
      );
    say(
      `The baseline: the three feeds polled every ${POLL_EVERY_MS} ms without Wait, ${input.followSeconds} s…`,
    );
    const beforePolling = total();
    await pollWithoutWait(client, await storedCursors(into, dataset.walkShop), input.followSeconds);
    const pollingRequests = total() - beforePolling;
    const { sales, payments, cash_movements: movements, sale_lines: lines } = pass.rows;
    const idle = async (into: string, idleSeconds: number) => {
      const stop = new AbortController();
      const follow = client
        .mirror({
          into,
          shops: [dataset.walkShop],
          follow: true,
          wait: FOLLOW_WAIT_SECONDS,
          reconcileEvery: RECONCILE_EVERY_SECONDS,
          signal: stop.signal,
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      await sleep(5000);
      const [before, cpu] = [total(), process.cpuUsage()];
      await sleep(idleSeconds * 1000);
      const used = process.cpuUsage(cpu);
      const idleRequests = total() - before;
      stop.abort();
      const error = await follow;
      // Ended by the abort: the follow's normal stop. Anything else makes the figure invalid.
      if (error && (error as { name?: string }).name !== 'AbortError') {
        throw error instanceof Error ? error : new Error('the idle follow failed');
      }
      return { idleSeconds, idleRequests, idleCpuMs: (used.user + used.system) / 1000 };
    };
    const targets: TargetFigures[] = [
      {
        target: 'SQLite',
        records: sales + payments + movements,
        seconds: mirrorSeconds,
        ...(await idle(into, TARGET_IDLE_SECONDS)),
      },
    ];
    const mariadbServer = new URL(input.databaseUrl);
    mariadbServer.pathname = '/';
    for (const [target, server] of [
      ['PostgreSQL', BENCH_POSTGRES_URL],
      ['MariaDB', mariadbServer.toString()],
    ] as const) {
      say(`client.mirror of ${dataset.walkShop} into ${target}, one pass, then idle…`);
      const database = await freshDatabase(target, server);
      try {
        const at = process.hrtime.bigint();
        const first = await client.mirror({ into: database.into, shops: [dataset.walkShop] });
        const elapsed = seconds(at);
        const { rows } = first;
        targets.push({
          target,
          records: rows.sales + rows.payments + rows.cash_movements,
          seconds: elapsed,
          ...(await idle(database.into, TARGET_IDLE_SECONDS)),
        });
      } finally {
        await database.drop();
      }
    }
    say(`The floor again, after the copies…`);
    rawRuns.push(await measureRawFloor(input.databaseUrl, dataset, dir));
    const rate = (run: RawFloor) => run.records / run.seconds;
    const raw = rawRuns.reduce((fast, run) => (rate(run) > rate(fast) ? run : fast));
    // Three years of one shop, in a database of its own: the year against the three.
    const longUrl = longDatabaseUrl(input.databaseUrl);
    const long = await prepareDatabase(longUrl, LONG_DATASET, say);
    await setRecommendedIndexes(longUrl);
    say('Peak memory of the service and the client, a year against three years…');
    const lastYear = addDays(long.to.slice(0, 10), -365);
    const memory = await measurePeriodMemory({
      databaseUrl: longUrl,
      secrets: input.secrets,
      dataset: long,
      dir,
      periods: [
        { label: 'a year', from: `${lastYear}T00:00:00`, to: long.to },
        { label: 'three years', from: long.from, to: long.to },
      ],
    });
    return {
      shop: dataset.walkShop,
      raw,
      rawRuns,
      exportRecords,
      exportSeconds,
      parquetRecords,
      parquetSeconds,
      memory,
      mirrorRecords: sales + payments + movements,
      mirrorLines: lines,
      mirrorSeconds,
      daysChecked: pass.daysChecked,
      followSeconds: input.followSeconds,
      followRequests,
      followFeedCalls,
      reconcileCalls,
      pollingRequests,
      targets,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function mirrorTable(m: MirrorBench): string {
  const rate = (records: number, s: number) => Math.round(records / s).toLocaleString('en-US');
  const floor = m.raw.records / m.raw.seconds;
  const ofFloor = (records: number, s: number) => `${(records / s / floor).toFixed(2)}×`;
  const row = (what: string, records: number, s: number) =>
    `| ${what} | ${records.toLocaleString('en-US')} | ${s.toFixed(1)} | ${rate(records, s)} | ${ofFloor(records, s)} |`;
  return [
    '| What | Records | Seconds | Records/s | ÷ raw floor |',
    '|---|---:|---:|---:|---:|',
    row(
      `raw floor: mysql2 into an NDJSON file, ${m.shop}'s year (sales with lines, payments, movements), the faster of two runs (${m.rawRuns.map((r) => rate(r.records, r.seconds)).join(' and ')} records/s, before and after the copies)`,
      m.raw.records,
      m.raw.seconds,
    ),
    row(
      `\`pos-read export\` sales + payments + cash-movements of ${m.shop}, the year (bulk read, NDJSON files)`,
      m.exportRecords,
      m.exportSeconds,
    ),
    row(
      '`pos-read export --format parquet` of the same (the bulk read by business date; partitions made ready in worker threads while it reads)',
      m.parquetRecords,
      m.parquetSeconds,
    ),
    row(
      `\`client.mirror\` first pass of ${m.shop} (SQLite, ${m.mirrorLines.toLocaleString('en-US')} sale lines too, ${m.daysChecked} days checked)`,
      m.mirrorRecords,
      m.mirrorSeconds,
    ),
    ...m.targets
      .slice(1)
      .map((t) => row(`\`client.mirror\` first pass into ${t.target}`, t.records, t.seconds)),
    '',
    ...memoryTable(m.shop, m.memory),
    '',
    ...idleTable(m),
    '',
    ...targetTable(m),
  ].join('\n');
}

/** The first pass into each target (records a second, against SQLite) and its idle cost. */
export function targetTable(m: MirrorBench): string[] {
  const sqlite = m.targets[0];
  const rate = (t: TargetFigures) => t.records / t.seconds;
  return [
    `| Target: first pass of ${m.shop}, then idle | Records | Seconds | Records/s | ÷ SQLite | Idle requests a minute | Idle client CPU, ms a minute |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    ...m.targets.map(
      (t) =>
        `| ${t.target} | ${t.records.toLocaleString('en-US')} | ${t.seconds.toFixed(1)} | ` +
        `${Math.round(rate(t)).toLocaleString('en-US')} | ${(rate(t) / rate(sqlite)).toFixed(2)}× | ` +
        `${((t.idleRequests * 60) / t.idleSeconds).toFixed(1)} | ${Math.round((t.idleCpuMs * 60) / t.idleSeconds)} |`,
    ),
  ];
}

/** The idle follow's requests a minute, by kind, against polling without Wait. */
export function idleTable(m: MirrorBench): string[] {
  const perMinute = (n: number) => ((n * 60) / m.followSeconds).toFixed(1);
  const reconcilePerMinute = (m.reconcileCalls * 60) / RECONCILE_EVERY_SECONDS;
  const followTotal = (m.followFeedCalls * 60) / m.followSeconds + reconcilePerMinute;
  const pollingPerMinute = (m.pollingRequests * 60) / m.followSeconds;
  return [
    `| Idle ${m.shop} (nothing written), ${m.followSeconds} s | Requests | A minute |`,
    '|---|---:|---:|',
    `| \`follow\`, feeds held with Wait ${FOLLOW_WAIT_SECONDS} s (3 feeds) | ${m.followFeedCalls} | ${perMinute(m.followFeedCalls)} |`,
    `| \`follow\`, every request in the ${m.followSeconds} s (feeds, digests, token) | ${m.followRequests} | ${perMinute(m.followRequests)} |`,
    `| \`follow\`, window reconciled every ${RECONCILE_EVERY_SECONDS} s: ${m.reconcileCalls} digest calls each (counted in the first pass) | | ${reconcilePerMinute.toFixed(1)} |`,
    `| **\`follow\` idle total** (feeds + reconciliation) | | **${followTotal.toFixed(1)}** |`,
    `| baseline: the 3 feeds polled every ${POLL_EVERY_MS / 1000} s without Wait (the same delivery delay) | ${m.pollingRequests} | ${pollingPerMinute.toFixed(1)} |`,
    '',
    `Wait sends ${(pollingPerMinute / followTotal).toFixed(0)}× fewer requests than polling for the same delay.`,
  ];
}

/** `npm run bench -- --mirror`: the service alone, the client's mirror against its export. */
export async function runMirror(
  options: BenchOptions,
  dataset: Dataset,
  secrets: SharedSecrets,
  say: (line: string) => void,
): Promise<void> {
  // As the recommended set-up reads: the feeds' (shop_code, id) indexes serve the first copy's
  // feeds and the bulk read's feed cursor (without them each slice of ids reads the shop's all).
  await setRecommendedIndexes(options.databaseUrl);
  const service = await startService(options.databaseUrl, secrets, PRODUCTION_RUNTIME);
  try {
    const result = await measureMirror({
      service,
      dataset,
      followSeconds: 60,
      databaseUrl: options.databaseUrl,
      secrets,
      say,
    });
    say(`Measured with \`${options.command}\`:\n`);
    say(mirrorTable(result));
  } finally {
    await service.stop();
  }
}
