import { Agent, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { combine, drive, type LoadRun, type Measured } from './load';
import type { Bench } from './scenarios';
import { ThrottledLink } from './throttled-link';
import { type LevelRow, measureLevels } from './compression-levels';

/** The two clients of the comparison: one sends no Accept-Encoding, one asks for gzip. */
const VARIANTS = [
  { name: 'none', headers: {} },
  { name: 'gzip', headers: { 'accept-encoding': 'gzip' } },
] as const;
type Variant = (typeof VARIANTS)[number]['name'];

export interface LinkWalk {
  pages: number;
  records: number;
  wireBytes: number;
  seconds: number;
}

export interface CompressionResults {
  /** Bytes of the first sales page (500 sales) as sent. */
  pageBytes: Record<Variant, number>;
  pages: Record<Variant, Measured>;
  walks: Record<Variant, LinkWalk>;
  levels: LevelRow[];
}

interface Wire {
  status: number;
  encoding: string | undefined;
  body: Buffer;
}

/** One GET with node:http: no Accept-Encoding of its own, the body as it came over the wire. */
function wireGet(url: string, headers: Record<string, string>, agent?: Agent): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: res.headers['content-encoding'],
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.once('error', reject);
    req.end();
  });
}

const decoded = (wire: Wire): Buffer =>
  wire.encoding === 'gzip' ? gunzipSync(wire.body) : wire.body;

/** One shop's year through the cursor over the throttled link, decoding as a client must. */
async function walkOverLink(
  bench: Bench,
  link: ThrottledLink,
  variant: Variant,
): Promise<LinkWalk> {
  const { dataset } = bench;
  const headers = {
    authorization: `Bearer ${bench.token}`,
    ...VARIANTS.find((v) => v.name === variant)?.headers,
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const query = new URLSearchParams({
    ShopCode: dataset.walkShop,
    From: dataset.from,
    To: dataset.to,
  });
  let url = `${link.baseUrl}/api/v1.0/sales?${query.toString()}`;
  const walked: LinkWalk = { pages: 0, records: 0, wireBytes: 0, seconds: 0 };
  const started = process.hrtime.bigint();
  try {
    for (;;) {
      const wire = await wireGet(url, headers, agent);
      if (wire.status !== 200) throw new Error(`walk over the link: HTTP ${wire.status}`);
      if ((wire.encoding ?? 'none') !== variant) throw new Error(`walk: got ${wire.encoding}`);
      const page = JSON.parse(decoded(wire).toString('utf8')) as {
        data: unknown[];
        nextCursor: string | null;
      };
      walked.pages++;
      walked.records += page.data.length;
      walked.wireBytes += wire.body.length;
      if (page.nextCursor === null) break;
      url = `${link.baseUrl}/api/v1.0/sales?Cursor=${encodeURIComponent(page.nextCursor)}`;
    }
  } finally {
    agent.destroy();
  }
  walked.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (walked.records !== dataset.walkShopSales) {
    throw new Error(`walk over the link read ${walked.records} of ${dataset.walkShopSales} sales`);
  }
  return walked;
}

/**
 * Compression (issue 17), on the service only, in the same run as everything else: the first
 * sales page (500 sales) without and with `Accept-Encoding: gzip` at the bench's concurrency,
 * alternating; then one shop's year through a 50 Mbit/s link both ways; then the levels.
 */
export async function measureCompression(bench: Bench): Promise<CompressionResults> {
  const { service, dataset, options } = bench;
  const pagePath = `/api/v1.0/sales?From=${dataset.from}&To=${dataset.to}`;
  const auth = { authorization: `Bearer ${bench.token}` };
  const plain = await wireGet(service.baseUrl + pagePath, auth);
  const gzip = await wireGet(service.baseUrl + pagePath, { ...auth, ...VARIANTS[1].headers });
  if (
    plain.encoding !== undefined ||
    gzip.encoding !== 'gzip' ||
    !decoded(gzip).equals(plain.body)
  ) {
    throw new Error('compression: the gzip page does not decode to the identity page');
  }
  const load = (variant: (typeof VARIANTS)[number], durationSeconds: number) =>
    drive({
      url: service.baseUrl + pagePath,
      headers: { ...auth, ...variant.headers },
      connections: options.connections,
      durationSeconds,
    });
  for (const variant of VARIANTS) await load(variant, options.quick ? 1 : 3); // warm-up
  const runs: Record<Variant, LoadRun[]> = { none: [], gzip: [] };
  bench.serviceRss.enter('compression: sales page');
  for (let round = 1; round <= options.rounds; round++) {
    for (const variant of VARIANTS) {
      const run = await load(variant, options.durationSeconds);
      if (run.failures.length > 0)
        throw new Error(`compression ${variant.name}: ${run.failures.join(', ')}`);
      runs[variant.name].push(run);
      bench.say(
        `  round ${round} sales page, Accept-Encoding ${variant.name.padEnd(4)} ` +
          `${(run.requests / run.seconds).toFixed(1).padStart(7)} req/s`,
      );
    }
  }
  bench.serviceRss.enter('compression: walk over 50 Mbit/s');
  const link = await ThrottledLink.start(new URL(service.baseUrl));
  const walks = {} as Record<Variant, LinkWalk>;
  try {
    for (const variant of VARIANTS) {
      walks[variant.name] = await walkOverLink(bench, link, variant.name);
      bench.say(
        `  walk of ${dataset.walkShop} over 50 Mbit/s, Accept-Encoding ${variant.name}: ` +
          `${(walks[variant.name].wireBytes / 1e6).toFixed(1)} MB in ${walks[variant.name].seconds.toFixed(1)} s`,
      );
    }
  } finally {
    await link.close();
  }
  return {
    pageBytes: { none: plain.body.length, gzip: gzip.body.length },
    pages: { none: combine(runs.none), gzip: combine(runs.gzip) },
    walks,
    levels: measureLevels(plain.body),
  };
}
