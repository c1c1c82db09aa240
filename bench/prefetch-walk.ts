import { PosReadClient } from '../packages/client/src/index';
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
}

/** The walks and their floor: per page, the slower of the database and the wire. */
export interface PrefetchResults {
  walks: ClientWalk[];
  /** SQL time of each page of the same walk (the baseline's Server-Timing), ms. */
  dbMs: number[];
}

/** The client asks for gzip alone, as the compression scenario's walk does. */
const gzipFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('accept-encoding', 'gzip');
  return fetch(input, { ...init, headers });
};

async function clientWalk(bench: Bench, link: ThrottledLink, prefetch: boolean) {
  const { dataset } = bench;
  const client = new PosReadClient({
    baseUrl: link.baseUrl,
    username: dataset.user.username,
    password: dataset.user.password,
    fetch: gzipFetch,
  });
  await client.token(); // the sign-in is not the walk
  const query = { shopCode: dataset.walkShop, from: dataset.from, to: dataset.to, prefetch };
  const before = link.bytesDown;
  const started = process.hrtime.bigint();
  const walked: ClientWalk = { prefetch, pages: 0, records: 0, seconds: 0, wireBytes: 0 };
  for await (const page of client.sales.list(query).pages()) {
    walked.pages++;
    walked.records += page.data.length;
  }
  walked.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  walked.wireBytes = link.bytesDown - before;
  if (walked.records !== dataset.walkShopSales) {
    throw new Error(`client walk read ${walked.records} of ${dataset.walkShopSales} sales`);
  }
  return walked;
}

/** The SQL time of every page of the walk, from the baseline (same keyset, same cursors). */
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
    const page = (await response.json()) as { nextCursor: string | null };
    const timing = /db;dur=([0-9.]+)/.exec(response.headers.get('server-timing') ?? '');
    if (response.status !== 200 || !timing) throw new Error(`DB time: HTTP ${response.status}`);
    times.push(Number(timing[1]));
    if (page.nextCursor === null) return times;
    url = `${bench.baseline.baseUrl}/api/v1.0/sales?Cursor=${encodeURIComponent(page.nextCursor)}`;
  }
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
  bench.serviceRss.enter('walk over 50 Mbit/s, prefetch');
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const prefetch of [false, true]) {
        const walked = await clientWalk(bench, link, prefetch);
        walks.push(walked);
        bench.say(
          `  round ${round} client walk over 50 Mbit/s, gzip, prefetch ${prefetch ? 'on ' : 'off'}: ` +
            `${walked.pages} pages in ${walked.seconds.toFixed(1)} s`,
        );
      }
      dbMs.push(await databaseTimes(bench));
    }
  } finally {
    await link.close();
  }
  // Per page, the lower of the rounds' database times: the database's own cost, least disturbed.
  return { walks, dbMs: dbMs[0].map((_, i) => Math.min(...dbMs.map((round) => round[i]))) };
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
  return {
    withPrefetch: withPrefetch.msPerPage,
    without: without.msPerPage,
    wireMs,
    dbMs,
    floorMs,
  };
}
