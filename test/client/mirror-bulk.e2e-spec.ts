import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BulkBatch, PosReadClient } from '../../packages/client/src/index';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { insertCashMovement, insertPayment, insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { requires } from '../support/requirements';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { clientOn } from './support/client-app';
import { MIRROR_TARGETS, mirrorTables, SQLITE_TARGET, storeOf } from './support/mirror-targets';
import { apiLists, dayFromToday } from './support/mirror-scenario';
import { Wire } from './support/wire';

jest.setTimeout(240_000);

type Rec = { id: string } & Record<string, unknown>;

/** What a fault does to one bulk answer's text: the text sent instead, and how it stops. */
type Fault = { text: string; stop?: 'close' | 'error' } | undefined;

/** Pseudo-random numbers from a seed (mulberry32): the same cuts on every run of the spec. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A fetch whose bulk answers pass through `fault` (the n-th bulk answer, its text): sent in
 * pieces of random sizes, then closed (a clean end of the body) or failed as a dropped
 * connection. Every other request goes to `base` untouched.
 */
function faulty(
  base: typeof fetch,
  fault: (text: string, n: number, url: string) => Fault,
  seed = 1,
): typeof fetch {
  let n = 0;
  const rand = random(seed);
  return async (input, init) => {
    const response = await base(input, init);
    const url = input as string;
    if (!url.includes('/bulk?') || !response.ok) return response;
    const text = await response.text();
    const changed = fault(text, n++, url) ?? { text };
    const bytes = Buffer.from(changed.text, 'utf8');
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < bytes.length) {
          const size = 1 + Math.floor(rand() * 8192);
          controller.enqueue(new Uint8Array(bytes.subarray(at, at + size)));
          at += size;
        } else if (changed.stop === 'error') controller.error(new TypeError('terminated'));
        else controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
  };
}

/** Every record of a bulk read, batches rewound as they say. */
async function bulkRecords(batches: AsyncIterable<BulkBatch<Rec>>) {
  const kept: Array<{ cursor: string | null; records: Rec[] }> = [];
  let rewinds = 0;
  for await (const batch of batches) {
    if (batch.rewound) {
      rewinds++;
      const after = batch.rewound.after;
      const keep = after === null ? 0 : kept.findIndex((b) => b.cursor === after) + 1;
      kept.splice(keep);
    }
    kept.push(batch);
  }
  return { records: kept.flatMap((b) => b.records), rewinds };
}

/**
 * Issue 55, items 3 and 4: the client's bulk read (BulkRead) and the mirror's first copy on it,
 * against the real service over HTTP: every table equal to the lists, whatever the engine; a
 * stream cut anywhere, ended by an error line or corrupted, read on without loss or doubles; what
 * commits during the copy brought by the feed from the start line's cursor.
 */
describeEachDatabase('Client: the first copy through the bulk read (issue 55)', (ctx) => {
  let app: TestApp;
  let wire: Wire;
  let client: PosReadClient;
  let user: { username: string; password: string };
  let shop: string;
  let env: Record<string, string>;
  let dir: string;
  let nextId = 9_000_000n;

  beforeAll(async () => {
    // Over 1,000 sales (a checkpoint), and rows four years back: three periods of history.
    const history = { shops: 1, days: 40, salesPerDay: 30, startDate: dayFromToday(-41) };
    shop = (await seedBusinessData(ctx.db.db, { seed: 5503, ...history })).shopCodes[0];
    for (const [n, days] of [
      [0, -1500],
      [1, -1499],
    ] as const) {
      const at = `${dayFromToday(days)} 10:00:00.000`;
      const id = nextId + BigInt(n);
      await insertSale(ctx.db.db, { id, shopCode: shop, soldAt: at });
      await insertPayment(ctx.db.db, {
        id,
        saleId: id,
        shopCode: shop,
        paidAt: at,
        amount: '12.10',
      });
      await insertCashMovement(ctx.db.db, {
        id,
        shopCode: shop,
        movedAt: at,
        amount: '50.00',
        kind: n === 0 ? 'OPENING_FLOAT' : 'CASH_IN',
      });
    }
    nextId += 10n;
    user = await createUser(ctx.db.db, { shops: [shop] });
    env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
    app = await startTestApp(ctx.db, {
      DIGEST_CALLS_PER_MINUTE: '10000',
      TOKEN_RATE_LIMIT_PER_MINUTE: '10000',
    });
    wire = new Wire(app.baseUrl);
    client = clientOn(wire, user);
    dir = mkdtempSync(path.join(tmpdir(), 'mirror-bulk-'));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const FAST = { retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 8 } };
  const mirror = (into: string, extra: object = {}) =>
    posRead(wire, ['mirror', '--into', into, '--shop', shop], {
      env,
      client: { ...FAST, ...extra },
    });

  for (const target of ctx.kind === 'sqlite' ? MIRROR_TARGETS : [SQLITE_TARGET]) {
    requires(...target.requires).it(
      `should copy history through the bulk read, every table equal to the lists, then verify equal [into ${target.kind}]`,
      async () => {
        const place = await target.create(dir, 'bulk');
        try {
          const before = wire.sent.length;
          expect(await mirror(place.into)).toMatchObject({ code: 0 });
          const sent = wire.sent.slice(before).map((r) => r.url);
          for (const resource of ['sales', 'payments', 'cash-movements', 'cash-drawer-sessions']) {
            expect([resource, sent.filter((u) => u.includes(`/${resource}/bulk?`)).length]).toEqual(
              [resource, resource === 'cash-drawer-sessions' ? 2 : 3],
            );
          }
          // The feeds only from the hand-over: never walked from their beginning.
          const feeds = sent.filter((u) => u.includes('/feed?'));
          expect(feeds.length).toBeGreaterThanOrEqual(3);
          expect(feeds.every((u) => u.includes('Cursor='))).toBe(true);
          const api = await apiLists(client, [shop]);
          expect(api.sales.length).toBeGreaterThan(1000);
          const copy = await mirrorTables(place.into);
          for (const resource of Object.keys(api)) {
            expect([resource, copy[resource]?.length]).toEqual([resource, api[resource].length]);
          }
          expect(copy).toEqual(api);
          const verify = await posRead(wire, ['verify', '--into', place.into], { env });
          expect(verify).toMatchObject({ code: 0, stdout: '' });
          if (target.kind === 'postgres') {
            // Its bulk path: COPY into a temporary table (pg-copy-streams, a dev dependency).
            const store = await storeOf(place.into);
            try {
              await store.transaction((tx) =>
                Promise.resolve(expect(tx.copy).toBeInstanceOf(Function)),
              );
            } finally {
              await store.close();
            }
          }
          // Idempotent: a second pass (the feeds from their cursors) changes nothing.
          expect(await mirror(place.into)).toMatchObject({ code: 0 });
          expect(await mirrorTables(place.into)).toEqual(api);
        } finally {
          await place.drop();
        }
      },
    );
  }

  if (ctx.kind !== 'sqlite') return;

  const listed = async (resource: 'sales' | 'payments') =>
    (await client[resource].list(year()).toArray()) as Rec[];
  const year = () => ({ shopCode: shop, from: dayFromToday(-60), to: dayFromToday(1) });

  it('should lose and double nothing when the stream is cut at random points, closed or dropped', async () => {
    const all = await listed('sales');
    for (const seed of [1, 2, 3]) {
      const rand = random(seed);
      const cuts = faulty(
        wire.fetch,
        (text, n) =>
          n < 4
            ? {
                text: text.slice(0, Math.floor(rand() * text.length)),
                stop: n % 2 ? 'error' : 'close',
              }
            : undefined,
        seed,
      );
      const cutClient = clientOn(wire, user, { fetch: cuts, ...FAST });
      const read = cutClient.sales.bulk(year());
      const { records, rewinds } = await bulkRecords(read as AsyncIterable<BulkBatch<Rec>>);
      expect(rewinds).toBe(0);
      expect(records.map((r) => r.id)).toEqual(all.map((r) => r.id));
      expect(records).toEqual(all);
    }
  });

  it('should go on from the last checkpoint after an error line', async () => {
    const all = await listed('payments');
    const urls: string[] = [];
    const erring = faulty(wire.fetch, (text, n, url) => {
      urls.push(url);
      if (n > 0) return undefined;
      const lines = text.split('\n');
      const checkpoint = lines.findIndex((line) => line.includes('"type":"checkpoint"'));
      const cursor = (JSON.parse(lines[checkpoint]) as { cursor: string }).cursor;
      const error = {
        type: 'error',
        status: 503,
        title: 'Service Unavailable',
        detail: 'The database is unavailable right now; retry shortly.',
        cursor,
      };
      return { text: [...lines.slice(0, checkpoint + 11), JSON.stringify(error), ''].join('\n') };
    });
    const read = clientOn(wire, user, { fetch: erring, ...FAST }).payments.bulk(year());
    const { records } = await bulkRecords(read as AsyncIterable<BulkBatch<Rec>>);
    expect(records).toEqual(all);
    expect(urls).toHaveLength(2);
    expect(urls[1]).toMatch(/[?&]Cursor=/);
  });

  it('should read the stream uncompressed: fetch decodes gzip ahead of a slow reader (decision 55.3.2)', async () => {
    const asked: Array<{ encoding: string | null; answered: string | null }> = [];
    const watched: typeof fetch = async (input, init) => {
      const response = await wire.fetch(input, init);
      if ((input as string).includes('/bulk?'))
        asked.push({
          encoding: new Headers(init?.headers).get('accept-encoding'),
          answered: response.headers.get('content-encoding'),
        });
      return response;
    };
    const read = clientOn(wire, user, { fetch: watched, ...FAST }).payments.bulk(year());
    const { records } = await bulkRecords(read as AsyncIterable<BulkBatch<Rec>>);
    expect(records).toEqual(await listed('payments'));
    expect(asked).toEqual([{ encoding: 'identity', answered: null }]);
  });

  it('should see a corrupted byte by the end line, read that response again and say what it replaces', async () => {
    const all = await listed('sales');
    // One digit of an amount in the first checkpoint's records: still JSON, not what was sent.
    const corrupt = (text: string) => {
      const at = text.indexOf('"totalGross":"') + '"totalGross":"'.length;
      const digit = text[at] === '9' ? '1' : '9';
      return { text: text.slice(0, at) + digit + text.slice(at + 1) };
    };
    const read = clientOn(wire, user, {
      fetch: faulty(wire.fetch, (text, n) => (n === 0 ? corrupt(text) : undefined)),
      ...FAST,
    }).sales.bulk(year());
    const { records, rewinds } = await bulkRecords(read as AsyncIterable<BulkBatch<Rec>>);
    expect(rewinds).toBe(1);
    expect(records).toEqual(all);
  });

  describe('pos-read export through the bulk read', () => {
    const exported = (file: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Rec);
    const exportArgs = (out: string) => [
      'export',
      'sales',
      '--shop',
      shop,
      '--from',
      year().from,
      '--to',
      year().to,
      '--out',
      out,
    ];

    /** A digit of the first answer's first record: handed over at its first checkpoint, refuted by its end line. */
    const firstRecordCorrupted = () =>
      faulty(wire.fetch, (text, n) => {
        if (n > 0) return undefined;
        const at = text.indexOf('"totalNet":"') + '"totalNet":"'.length;
        return { text: text.slice(0, at) + (text[at] === '8' ? '1' : '8') + text.slice(at + 1) };
      });

    it('should write each record once when an end line does not match: the file cut back and written again', async () => {
      const out = path.join(dir, 'corrupt.ndjson');
      const fetch = firstRecordCorrupted();
      const run = await posRead(wire, exportArgs(out), { env, client: { fetch, ...FAST } });
      expect(run).toMatchObject({ code: 0 });
      expect(exported(out)).toEqual(await listed('sales'));
    });

    it('should stop a Parquet export whose end line does not match, leaving no partition and no spool', async () => {
      const out = path.join(dir, 'corrupt-parquet');
      const fetch = firstRecordCorrupted();
      const dates = ['--from', year().from.slice(0, 10), '--to', year().to.slice(0, 10)];
      const args = ['export', 'sales', '--shop', shop, '--format', 'parquet', ...dates];
      const run = await posRead(wire, [...args, '--out', out], { env, client: { fetch, ...FAST } });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/the bulk read's end line did not match what arrived/);
      expect(readdirSync(out)).toEqual([]);
      // The same export on a sound stream writes the partitions.
      const sound = await posRead(wire, [...args, '--out', out], { env });
      expect(sound).toMatchObject({ code: 0 });
      expect(readdirSync(out).sort()).toEqual(['sale_lines', 'sales']);
    });

    it('should go on with --resume from the checkpoint after the last batch written', async () => {
      const out = path.join(dir, 'resumed.ndjson');
      // The first stream dropped after its first checkpoint, and no retry: the export stops.
      const fetch = faulty(wire.fetch, (text) => {
        const checkpoint = text.indexOf('{"type":"checkpoint"');
        return { text: text.slice(0, text.indexOf('\n', checkpoint) + 200), stop: 'error' };
      });
      const retry = { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 0 };
      const cut = await posRead(wire, exportArgs(out), { env, client: { fetch, retry } });
      expect(cut.code).not.toBe(0);
      expect(existsSync(`${out}.pos-read-resume.json`)).toBe(true);
      const before = wire.sent.length;
      const resumed = await posRead(wire, [...exportArgs(out), '--resume'], { env });
      expect(resumed).toMatchObject({ code: 0 });
      expect(wire.sent.slice(before).find((r) => r.url.includes('/bulk?'))?.url).toMatch(
        /[?&]Cursor=/,
      );
      expect(exported(out)).toEqual(await listed('sales'));
    });
  });

  /** The sales' stream of the recent period (after the hand-over and the old period's). */
  const recentSales = (url: string) =>
    url.includes('/sales/bulk?') && url.includes(`From=${dayFromToday(-41)}`);

  it('should leave no corrupted row in the copy: the load of that table starts over', async () => {
    const place = await SQLITE_TARGET.create(dir, 'corrupt');
    let corrupted = false;
    const fetch = faulty(wire.fetch, (text, _n, url) => {
      if (corrupted || !recentSales(url)) return undefined;
      corrupted = true;
      // The first record's id gets a digit: a row under an id the server does not have.
      const at = text.indexOf('"id":"') + '"id":"'.length;
      return { text: `${text.slice(0, at)}7${text.slice(at)}` };
    });
    expect(await mirror(place.into, { fetch })).toMatchObject({ code: 0 });
    expect(corrupted).toBe(true);
    expect(await mirrorTables(place.into)).toEqual(await apiLists(client, [shop]));
  });

  it("should bring what commits during the copy through the feed from the start line's cursor", async () => {
    const place = await SQLITE_TARGET.create(dir, 'during');
    const id = nextId++;
    let inserted = false;
    // Committed once the recent sales' stream has begun (the hand-over long before): rung up
    // on its first day, so behind the stream's position, and ahead of the feed's cursor.
    const during: typeof fetch = async (input, init) => {
      const response = await wire.fetch(input, init);
      if (!inserted && recentSales(input as string)) {
        const soldAt = `${dayFromToday(-41)} 00:00:01.000`;
        await insertSale(ctx.db.db, { id, shopCode: shop, soldAt });
        inserted = true;
      }
      return response;
    };
    let streamed: boolean | undefined;
    const seen = faulty(during, (text, _n, url) => {
      if (recentSales(url)) streamed = text.includes(`"id":"${id}"`);
      return undefined;
    });
    const before = wire.sent.length;
    expect(await mirror(place.into, { fetch: seen })).toMatchObject({ code: 0 });
    expect(inserted).toBe(true);
    const copy = (await mirrorTables(place.into)) as Record<string, Rec[]>;
    expect(copy.sales.some((sale) => sale.id === String(id))).toBe(true);
    expect(copy).toEqual(await apiLists(client, [shop]));
    // The stream had read past it: the feed from the hand-over brought it.
    expect(streamed).toBe(false);
    const feeds = wire.sent.slice(before).filter((r) => r.url.includes('/sales/feed?'));
    expect(feeds.length).toBeGreaterThan(0);
  });
});
