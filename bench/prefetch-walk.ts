import { PassThrough, Readable, Writable } from 'node:stream';
import { run as posRead } from '../packages/client/src/cli/run';
import { SALES } from '../src/sales/sales.source';
import { DB_TIME_HEADER } from './baseline/baseline-server';
import {
  gzipFetch,
  median,
  walkPeriod,
  walkPeriodAtIdlePriority,
  type WalkSpec,
} from './client-walk';
import type { Bench } from './scenarios';
import { LINK_BYTES_PER_SECOND, ThrottledLink } from './throttled-link';

/**
 * Where a walk's client runs: in the bench process, beside the link and on the server's cores at
 * the same priority (the walk the target is judged on); or in a process of its own at the lowest
 * CPU priority, the stand-in for a client on its own machine (decision 29.18).
 */
export type WalkClient = 'bench process' | 'idle priority';

/** One walk of the shop's year over the link, with or without the client's prefetch. */
export interface ClientWalk {
  prefetch: boolean;
  client: WalkClient;
  pages: number;
  records: number;
  seconds: number;
  wireBytes: number;
  /** Median wait of a page's request for its answer's headers (the service, then the link), ms. */
  headersMs: number;
  /**
   * CPU of the client's process per page of the walk, ms: in the bench process that is the client
   * (HTTP, gunzip, JSON) and the simulated link, a third of the machine's CPU in the walk
   * (docs/performance.md, seventh pass); at idle priority, the client alone.
   */
  clientCpuMs: number;
  /**
   * CPU of the bench process per page of the walk (its sign-in included), ms: with the client in
   * it, the client and the link; with the client at idle priority, the link alone.
   */
  benchCpuMs: number;
}

/** One `pos-read export sales` of every shop's quarter over the link, at one concurrency. */
export interface ExportRun {
  concurrency: number;
  records: number;
  seconds: number;
  wireBytes: number;
}

/** The walks and their floor: per page, the slower of the database and the wire. */
export interface PrefetchResults {
  walks: ClientWalk[];
  /** SQL time of each page of the same walk (the baseline's Server-Timing: all its statements), ms. */
  dbMs: number[];
  /** pos-read export of every shop at each concurrency (1: one walk of all shops). */
  exports: ExportRun[];
  /** The period the exports read (shop-local, From inclusive, To exclusive). */
  exportPeriod: { from: string; to: string };
}

/** The walks of a round, in order: prefetch off and on in the bench process, then on at idle priority. */
const WALKS: ReadonlyArray<readonly [boolean, WalkClient]> = [
  [false, 'bench process'],
  [true, 'bench process'],
  [true, 'idle priority'],
];

/** The concurrencies `pos-read export` is measured at: the default is chosen from them. */
export const EXPORT_CONCURRENCIES = [1, 2, 4, 8];

/**
 * One walk of the shop's year over the link: in the bench process (beside the link, as before),
 * or at the lowest CPU priority in a process of its own (decision 29.18).
 */
async function clientWalk(
  bench: Bench,
  link: ThrottledLink,
  prefetch: boolean,
  client: WalkClient,
): Promise<ClientWalk> {
  const { dataset } = bench;
  const spec: WalkSpec = {
    baseUrl: link.baseUrl,
    username: dataset.user.username,
    password: dataset.user.password,
    shopCode: dataset.walkShop,
    from: dataset.from,
    to: dataset.to,
    prefetch,
    expectedSales: dataset.walkShopSales,
  };
  const before = link.bytesDown;
  const cpu = process.cpuUsage();
  const walked =
    client === 'bench process' ? await walkPeriod(spec) : await walkPeriodAtIdlePriority(spec);
  const used = process.cpuUsage(cpu);
  return {
    prefetch,
    client,
    pages: walked.pages,
    records: walked.records,
    seconds: walked.seconds,
    // The sign-in's bytes too: a few hundred against the year's megabytes.
    wireBytes: link.bytesDown - before,
    headersMs: walked.headersMs,
    clientCpuMs: walked.clientCpuMs,
    benchCpuMs: (used.user + used.system) / 1000 / walked.pages,
  };
}

/**
 * The SQL time of every page of the walk, from the baseline (same keyset, same cursors): every
 * statement the service runs for the page, each timed from send to rows parsed. A page with
 * sales runs its keyset read and one read per attachment (its lines); a page that timed fewer
 * would make the floor too low, so the walk stops there.
 */
async function databaseTimes(bench: Bench): Promise<number[]> {
  const { dataset } = bench;
  const headers = {
    authorization: `Bearer ${bench.token}`,
    'accept-encoding': 'identity',
    [DB_TIME_HEADER]: '1',
  };
  const query = new URLSearchParams({
    ShopCode: dataset.walkShop,
    From: dataset.from,
    To: dataset.to,
  });
  let url = `${bench.baseline.baseUrl}/api/v1.0/sales?${query.toString()}`;
  const times: number[] = [];
  for (;;) {
    const response = await fetch(url, { headers });
    const page = (await response.json()) as { data: unknown[]; nextCursor: string | null };
    const timing = /db;dur=([0-9.]+);desc="(\d+) statements"/.exec(
      response.headers.get('server-timing') ?? '',
    );
    if (response.status !== 200 || !timing) throw new Error(`DB time: HTTP ${response.status}`);
    const statements = page.data.length === 0 ? 1 : 1 + SALES.attached.length;
    if (Number(timing[2]) !== statements) {
      throw new Error(`DB time: ${timing[2]} statements timed, the page runs ${statements}`);
    }
    times.push(Number(timing[1]));
    if (page.nextCursor === null) return times;
    url = `${bench.baseline.baseUrl}/api/v1.0/sales?Cursor=${encodeURIComponent(page.nextCursor)}`;
  }
}

/** Counts the lines written to it and keeps none: the export's standard output (NDJSON). */
class LineCount extends Writable {
  lines = 0;
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    for (const byte of chunk) if (byte === 0x0a) this.lines++;
    done();
  }
}

/**
 * `pos-read export sales` of every shop over the link (gzip), to standard output (no file, so no
 * fsync per page in the figure), at one concurrency.
 */
async function exportOver(
  bench: Bench,
  link: ThrottledLink,
  concurrency: number,
  to: string,
): Promise<ExportRun> {
  const { dataset } = bench;
  const stdout = new LineCount();
  const before = link.bytesDown;
  const started = process.hrtime.bigint();
  const code = await posRead(
    ['export', 'sales', '--from', dataset.from, '--to', to, '--concurrency', String(concurrency)],
    {
      env: { POS_READ_USERNAME: dataset.user.username, POS_READ_PASSWORD: dataset.user.password },
      stdin: Readable.from([]),
      stdout,
      stderr: new PassThrough(),
      client: { baseUrl: link.baseUrl, fetch: gzipFetch() },
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`pos-read export --concurrency ${concurrency} exited ${code}`);
  return { concurrency, records: stdout.lines, seconds, wireBytes: link.bytesDown - before };
}

/**
 * One shop's year through the client package over the simulated 50 Mbit/s link with gzip,
 * without and with its prefetch (alternating, `rounds` each), and the database time of each of
 * its pages measured in the same run, for the floor.
 */
export async function measurePrefetchWalks(bench: Bench): Promise<PrefetchResults> {
  const rounds = bench.options.quick ? 1 : Math.min(bench.options.rounds, 2);
  const link = await ThrottledLink.start(new URL(bench.service.baseUrl));
  const walks: ClientWalk[] = [];
  const dbMs: number[][] = [];
  const exportRuns: ExportRun[] = [];
  // Every shop's first quarter (the quick dataset's days are fewer: its whole period).
  const exportTo = bench.options.quick ? bench.dataset.to : '2026-04-01T00:00:00';
  bench.serviceRss.enter('walk over 50 Mbit/s, prefetch');
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const [prefetch, client] of WALKS) {
        const walked = await clientWalk(bench, link, prefetch, client);
        walks.push(walked);
        bench.say(
          `  round ${round} client walk over 50 Mbit/s, gzip, prefetch ${prefetch ? 'on ' : 'off'}, ` +
            `client in ${client === 'bench process' ? 'the bench process' : 'a process at idle priority'}: ` +
            `${walked.pages} pages in ${walked.seconds.toFixed(1)} s, ` +
            `a page's headers after ${walked.headersMs.toFixed(1)} ms (median), ` +
            `CPU a page: the client's process ${walked.clientCpuMs.toFixed(1)} ms, the bench ` +
            `process ${walked.benchCpuMs.toFixed(1)} ms`,
        );
      }
      dbMs.push(await databaseTimes(bench));
    }
    for (const concurrency of EXPORT_CONCURRENCIES) {
      const run = await exportOver(bench, link, concurrency, exportTo);
      exportRuns.push(run);
      bench.say(
        `  pos-read export sales, every shop to ${exportTo.slice(0, 10)}, --concurrency ` +
          `${concurrency}: ${run.records} records in ${run.seconds.toFixed(1)} s`,
      );
    }
  } finally {
    await link.close();
  }
  const records = new Set(exportRuns.map((run) => run.records));
  if (records.size !== 1) throw new Error(`the exports wrote ${[...records].join(', ')} records`);
  return {
    walks,
    // Per page, the lower of the rounds' database times: the database's own cost, least disturbed.
    dbMs: dbMs[0].map((_, i) => Math.min(...dbMs.map((round) => round[i]))),
    exports: exportRuns,
    exportPeriod: { from: bench.dataset.from, to: exportTo },
  };
}

/** Per page: the walk's time, the database's, the wire's, and the floor (the slower of the two). */
export function prefetchFigures(r: PrefetchResults) {
  const walks = (prefetch: boolean, client: WalkClient) =>
    r.walks.filter((walk) => walk.prefetch === prefetch && walk.client === client);
  const per = (prefetch: boolean, client: WalkClient) => {
    const w = walks(prefetch, client);
    const pages = w.reduce((s, x) => s + x.pages, 0);
    return {
      msPerPage: (w.reduce((s, x) => s + x.seconds, 0) * 1000) / pages,
      wireMsPerPage:
        (w.reduce((s, x) => s + x.wireBytes, 0) / LINK_BYTES_PER_SECOND / pages) * 1000,
    };
  };
  // Each round's median wait for a page's headers, averaged over the rounds.
  const headersMs = (client: WalkClient) => {
    const waits = walks(true, client).map((walk) => walk.headersMs);
    return waits.reduce((s, ms) => s + ms, 0) / waits.length;
  };
  const withPrefetch = per(true, 'bench process');
  const wireMs = withPrefetch.wireMsPerPage;
  const floorMs = r.dbMs.reduce((s, db) => s + Math.max(db, wireMs), 0) / r.dbMs.length;
  const dbMs = r.dbMs.reduce((s, db) => s + db, 0) / r.dbMs.length;
  return {
    headersMs: headersMs('bench process'),
    idleHeadersMs: headersMs('idle priority'),
    dbMedianMs: median(r.dbMs),
    withPrefetch: withPrefetch.msPerPage,
    withPrefetchIdle: per(true, 'idle priority').msPerPage,
    without: per(false, 'bench process').msPerPage,
    wireMs,
    dbMs,
    floorMs,
  };
}
