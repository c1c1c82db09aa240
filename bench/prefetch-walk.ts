import { PassThrough, Readable, Writable } from 'node:stream';
import { run as posRead } from '../packages/client/src/cli/run';
import { PosReadClient } from '../packages/client/src/index';
import { SALES } from '../src/sales/sales.source';
import { DB_TIME_HEADER } from './baseline/baseline-server';
import type { Bench } from './scenarios';
import { LINK_BYTES_PER_SECOND, ThrottledLink } from './throttled-link';

/** One walk of the shop's year over the link, with or without the client's prefetch. */
export interface ClientWalk {
  prefetch: boolean;
  pages: number;
  records: number;
  seconds: number;
  wireBytes: number;
  /** Median wait of a page's request for its answer's headers (the service, then the link), ms. */
  headersMs: number;
  /**
   * CPU of the bench process (the client: HTTP, gunzip, JSON; and the simulated link) per page of
   * the walk, ms: a third of the machine's CPU in the walk (docs/performance.md, seventh pass).
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

/** The concurrencies `pos-read export` is measured at: the default is chosen from them. */
export const EXPORT_CONCURRENCIES = [1, 2, 4, 8];

/**
 * The client asks for gzip alone, as the compression scenario's walk does; each request's wait
 * for its answer's headers (the service's time to answer plus the link's first bytes) goes into
 * `waits`, in ms.
 */
function gzipFetch(waits: number[] = []): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('accept-encoding', 'gzip');
    const sent = performance.now();
    const response = await fetch(input, { ...init, headers });
    waits.push(performance.now() - sent);
    return response;
  };
}

async function clientWalk(bench: Bench, link: ThrottledLink, prefetch: boolean) {
  const { dataset } = bench;
  const waits: number[] = [];
  const client = new PosReadClient({
    baseUrl: link.baseUrl,
    username: dataset.user.username,
    password: dataset.user.password,
    fetch: gzipFetch(waits),
  });
  await client.token(); // the sign-in is not the walk
  waits.length = 0;
  const query = { shopCode: dataset.walkShop, from: dataset.from, to: dataset.to, prefetch };
  const before = link.bytesDown;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const walked: ClientWalk = {
    prefetch,
    pages: 0,
    records: 0,
    seconds: 0,
    wireBytes: 0,
    headersMs: 0,
    benchCpuMs: 0,
  };
  for await (const page of client.sales.list(query).pages()) {
    walked.pages++;
    walked.records += page.data.length;
  }
  walked.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  walked.benchCpuMs = (used.user + used.system) / 1000 / walked.pages;
  walked.wireBytes = link.bytesDown - before;
  walked.headersMs = median(waits);
  if (walked.records !== dataset.walkShopSales) {
    throw new Error(`client walk read ${walked.records} of ${dataset.walkShopSales} sales`);
  }
  return walked;
}

const READ_AHEAD_OUTCOMES = ['hits', 'stale', 'misses', 'wasted', 'failed', 'skipped'] as const;

/** The service's read-ahead outcomes so far (decision 29.12), from its /metrics. */
async function readAheadCounts(bench: Bench): Promise<Record<string, number>> {
  const text = (await bench.service.metrics?.()) ?? '';
  return Object.fromEntries(
    READ_AHEAD_OUTCOMES.map((outcome) => {
      const line = new RegExp(
        `^pos_api_list_read_ahead_total\\{outcome="${outcome}"\\} (\\d+)$`,
        'm',
      );
      return [outcome, Number(line.exec(text)?.[1] ?? 0)];
    }),
  );
}

/** What the service's read ahead did between two readings: `hits 512, misses 1, ...`. */
function readAheadDelta(before: Record<string, number>, after: Record<string, number>): string {
  return READ_AHEAD_OUTCOMES.map((o) => `${o} ${after[o] - before[o]}`).join(', ');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
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
      for (const prefetch of [false, true]) {
        const ahead = await readAheadCounts(bench);
        const walked = await clientWalk(bench, link, prefetch);
        walks.push(walked);
        bench.say(
          `  round ${round} client walk over 50 Mbit/s, gzip, prefetch ${prefetch ? 'on ' : 'off'}: ` +
            `${walked.pages} pages in ${walked.seconds.toFixed(1)} s, ` +
            `a page's headers after ${walked.headersMs.toFixed(1)} ms (median), ` +
            `${walked.benchCpuMs.toFixed(1)} ms of the bench process's CPU a page; the service's ` +
            `read ahead: ${readAheadDelta(ahead, await readAheadCounts(bench))}`,
        );
      }
      dbMs.push(await databaseTimes(bench));
    }
    for (const concurrency of EXPORT_CONCURRENCIES) {
      const ahead = await readAheadCounts(bench);
      const run = await exportOver(bench, link, concurrency, exportTo);
      exportRuns.push(run);
      bench.say(
        `  pos-read export sales, every shop to ${exportTo.slice(0, 10)}, --concurrency ` +
          `${concurrency}: ${run.records} records in ${run.seconds.toFixed(1)} s; the service's ` +
          `read ahead: ${readAheadDelta(ahead, await readAheadCounts(bench))}`,
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
  const per = (prefetch: boolean) => {
    const w = r.walks.filter((walk) => walk.prefetch === prefetch);
    const pages = w.reduce((s, x) => s + x.pages, 0);
    return {
      msPerPage: (w.reduce((s, x) => s + x.seconds, 0) * 1000) / pages,
      wireMsPerPage:
        (w.reduce((s, x) => s + x.wireBytes, 0) / LINK_BYTES_PER_SECOND / pages) * 1000,
    };
  };
  const withPrefetch = per(true);
  const without = per(false);
  const wireMs = withPrefetch.wireMsPerPage;
  const floorMs = r.dbMs.reduce((s, db) => s + Math.max(db, wireMs), 0) / r.dbMs.length;
  const dbMs = r.dbMs.reduce((s, db) => s + db, 0) / r.dbMs.length;
  // Each round's median wait for a page's headers, averaged over the rounds.
  const waits = r.walks.filter((walk) => walk.prefetch).map((walk) => walk.headersMs);
  return {
    headersMs: waits.reduce((s, ms) => s + ms, 0) / waits.length,
    dbMedianMs: median(r.dbMs),
    withPrefetch: withPrefetch.msPerPage,
    without: without.msPerPage,
    wireMs,
    dbMs,
    floorMs,
  };
}
