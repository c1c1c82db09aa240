import { CursorCodec } from '../src/sync/paging/cursor-codec';
import { CursorSecret } from '../src/common/cursor-secret';
import type { Dataset } from './bench-dataset';
import { setFeedIndex, shopMiddle } from './bench-database';
import type { Started } from './processes';
import type { SharedSecrets } from './targets';

/**
 * The feed against the time-ordered list, one shop of the dataset, service only (the feed's
 * cost is its SQL, not the framework): first page, a page from the middle of the shop's sales,
 * and a full catch-up of the shop, without and then with the index of
 * sql/recommended-indexes.sql. Requests one at a time; a page scenario's figure is the median
 * of its requests.
 */
export interface FeedInput {
  service: Started;
  token: string;
  dataset: Dataset;
  databaseUrl: string;
  secrets: SharedSecrets;
  /** Requests per page scenario. */
  repeats: number;
  say(line: string): void;
}

export interface FeedRow {
  index: 'without' | 'with';
  what: string;
  feedMs: number;
  listMs: number;
}

interface Body {
  data: Array<{ id: string }>;
  nextCursor: string | null;
  caughtUp?: boolean;
}

async function get(input: FeedInput, path: string): Promise<{ ms: number; body: Body }> {
  const started = process.hrtime.bigint();
  const response = await fetch(input.service.baseUrl + path, {
    headers: { authorization: `Bearer ${input.token}`, 'accept-encoding': 'identity' },
  });
  const text = await response.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as Body };
}

const middleOf = (times: number[]) => [...times].sort((a, b) => a - b)[times.length >> 1];

/**
 * The median time of each of two paths, asked for in turn (a, b, a, b, …) so that a change in
 * the machine's load weighs on both alike.
 */
async function pairedMedians(input: FeedInput, a: string, b: string): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < input.repeats; i++) {
    times[0].push((await get(input, a)).ms);
    times[1].push((await get(input, b)).ms);
  }
  return [middleOf(times[0]), middleOf(times[1])];
}

/** Every page of a query until its end (list: nextCursor null; feed: caughtUp); ms and records. */
async function catchUp(input: FeedInput, first: string, base: string) {
  let path = first;
  let ms = 0;
  let records = 0;
  for (;;) {
    const { ms: took, body } = await get(input, path);
    ms += took;
    records += body.data.length;
    const done = body.caughtUp ?? body.nextCursor === null;
    if (done || !body.nextCursor) return { ms, records };
    path = `${base}?Cursor=${encodeURIComponent(body.nextCursor)}`;
  }
}

export async function measureFeed(input: FeedInput): Promise<FeedRow[]> {
  const { dataset, secrets } = input;
  const shop = dataset.walkShop;
  const middle = await shopMiddle(input.databaseUrl, shop);
  const codec = new CursorCodec(new CursorSecret(Buffer.from(secrets.cursorSecret)));
  const cursor = (resource: string, afterTime: string, afterId: string) =>
    encodeURIComponent(
      codec.encode({
        resource,
        subject: dataset.user.id,
        shopCode: shop,
        from: null,
        to: null,
        afterTime,
        afterId,
      }),
    );
  const scenarios = [
    {
      what: 'first page of one shop',
      feed: `/api/v1.0/sales/feed?ShopCode=${shop}`,
      list: `/api/v1.0/sales?ShopCode=${shop}`,
    },
    {
      what: `page after the shop's sale ${middle.sales >> 1} of ${middle.sales}`,
      feed: `/api/v1.0/sales/feed?Cursor=${cursor('sales/feed', '', middle.id)}`,
      list: `/api/v1.0/sales?Cursor=${cursor('sales', middle.sold.time, middle.sold.id)}`,
    },
  ];
  const rows: FeedRow[] = [];
  try {
    for (const index of ['without', 'with'] as const) {
      input.say(`  ${index} the (shop_code, id) index on the sales table…`);
      await setFeedIndex(input.databaseUrl, index === 'with');
      for (const s of scenarios) {
        await pairedMedians({ ...input, repeats: 2 }, s.feed, s.list); // warm
        const [feedMs, listMs] = await pairedMedians(input, s.feed, s.list);
        rows.push({ index, what: s.what, feedMs, listMs });
      }
      const feed = await catchUp(
        input,
        `/api/v1.0/sales/feed?ShopCode=${shop}`,
        '/api/v1.0/sales/feed',
      );
      const list = await catchUp(input, `/api/v1.0/sales?ShopCode=${shop}`, '/api/v1.0/sales');
      if (feed.records !== list.records) {
        throw new Error(
          `catch-up of ${shop}: the feed gave ${feed.records} sales, the list ${list.records}`,
        );
      }
      rows.push({
        index,
        what: `catch-up of the shop (${feed.records} sales, pages of 500)`,
        feedMs: feed.ms,
        listMs: list.ms,
      });
    }
  } finally {
    // The database goes back to the given schema.
    await setFeedIndex(input.databaseUrl, false);
  }
  return rows;
}

/** The rows as a Markdown table (ratios: feed ÷ list, lower is better). */
export function feedTable(rows: FeedRow[]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(['index (shop_code, id)', 'scenario', 'feed ms', 'list ms', 'feed ÷ list']),
    line(['---', '---', '---:', '---:', '---:']),
    ...rows.map((r) =>
      line([
        r.index,
        r.what,
        r.feedMs.toFixed(1),
        r.listMs.toFixed(1),
        (r.feedMs / r.listMs).toFixed(2),
      ]),
    ),
  ].join('\n');
}
