import type { Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { partialFileOf, stateFileOf } from '../../packages/client/src/cli/export';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { idsInDatabase } from './support/database-ids';
import { Wire } from './support/wire';

const PERIOD = ['--from', '2026-03-01', '--to', '2026-04-01'];
const MONTH = { from: '2026-03-01T00:00:00', to: '2026-04-01T00:00:00' };

const parseNdjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string; shopCode: string; soldAt: string });

/**
 * The data requests of a run, each open from its start until its body has been read (the body
 * comes 20 ms after the headers, so the client has time to ask for what comes next), with the
 * most open at once, and the shops of those.
 */
class Watched {
  open = new Map<number, string>();
  mostOpen = 0;
  mostShopsOpen = 0;
  /** Every data request started, in order: its index is its id in `open`. */
  started: Array<{ shop: string; signal: AbortSignal | undefined }> = [];

  constructor(
    private readonly wire: Wire,
    /** Answers instead of the service (a refusal), else null. */
    private readonly refuse: (shop: string, page: number) => Response | null = () => null,
  ) {}

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/Token') || url.pathname.endsWith('/shops')) {
      return this.wire.fetch(input, init);
    }
    const shop = url.searchParams.get('ShopCode') ?? '';
    const page = this.started.filter((s) => s.shop === shop).length;
    const id = this.started.push({ shop, signal: init?.signal ?? undefined }) - 1;
    const refused = this.refuse(shop, page);
    if (refused) return refused;
    this.open.set(id, shop);
    this.mostOpen = Math.max(this.mostOpen, this.open.size);
    this.mostShopsOpen = Math.max(this.mostShopsOpen, new Set(this.open.values()).size);
    const close = () => void this.open.delete(id);
    let response: Response;
    let body: ArrayBuffer;
    try {
      response = await this.wire.fetch(input, init);
      body = await response.arrayBuffer();
    } catch (error) {
      close();
      throw error;
    }
    const slow = new ReadableStream<Uint8Array>({
      start(controller) {
        setTimeout(() => {
          controller.enqueue(new Uint8Array(body));
          controller.close();
          close();
        }, 20);
      },
      cancel: close,
    });
    return new Response(slow, { status: response.status, headers: response.headers });
  };
}

describeEachDatabase('pos-read export: one page ahead, several shops at once (issue 29)', (ctx) => {
  let app: TestApp;
  let env: Record<string, string>;
  let shops: string[];
  let dir: string;
  /** Every sale of the month in the user's shops, per shop, in time order. */
  let expected: Map<string, string[]>;

  beforeAll(async () => {
    const seeded = await seedBusinessData(ctx.db.db, {
      seed: 41,
      shops: 3,
      days: 6,
      salesPerDay: 12,
      startDate: '2026-03-10',
    });
    shops = seeded.shopCodes;
    const user = await createUser(ctx.db.db, { shops });
    env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
    app = await startTestApp(ctx.db, { TOKEN_RATE_LIMIT_PER_MINUTE: '200' });
    dir = mkdtempSync(path.join(tmpdir(), 'pos-read-concurrency-'));
    expected = new Map();
    for (const shop of shops) {
      expected.set(shop, await idsInDatabase(ctx.db.db, 'sales', { shopCode: shop, ...MONTH }));
    }
  }, 60_000);
  // The tests are over: no answer is waited for. A request whose walk was aborted may still be
  // answering, and Node's close() would wait for its connection; every connection is closed first.
  afterAll(async () => {
    (app?.app.getHttpServer() as Server | undefined)?.closeAllConnections();
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  /** The records of a file grouped by shop, each shop's in file order. */
  function byShop(records: Array<{ id: string; shopCode: string }>): Map<string, string[]> {
    const grouped = new Map<string, string[]>(shops.map((shop) => [shop, []]));
    for (const record of records) grouped.get(record.shopCode)?.push(record.id);
    return grouped;
  }

  it('should ask for the next page while writing this one, never more than one ahead', async () => {
    const watched = new Watched(new Wire(app.baseUrl));
    const out = path.join(dir, 'one-shop.ndjson');
    const result = await posRead(
      new Wire(app.baseUrl),
      ['export', 'sales', '--shop', shops[0], ...PERIOD, '--limit', '7', '--out', out],
      { env, client: { fetch: watched.fetch } },
    );
    expect(result.code).toBe(0);
    const ids = parseNdjson(readFileSync(out, 'utf8')).map((r) => r.id);
    expect(ids).toEqual(expected.get(shops[0]));
    expect(watched.started.length).toBe(Math.ceil(ids.length / 7));
    // The next page is asked for while this one's body arrives: two open, never three.
    expect(watched.mostOpen).toBe(2);
  });

  it('should walk the shops --concurrency at a time, each shop in time order, every record once', async () => {
    const watched = new Watched(new Wire(app.baseUrl));
    const out = path.join(dir, 'all-shops.ndjson');
    const result = await posRead(
      new Wire(app.baseUrl),
      ['export', 'sales', ...PERIOD, '--limit', '9', '--concurrency', '2', '--out', out],
      { env, client: { fetch: watched.fetch } },
    );
    expect(result.code).toBe(0);
    const records = parseNdjson(readFileSync(out, 'utf8'));
    expect(byShop(records)).toEqual(expected);
    expect(records.length).toBe([...expected.values()].flat().length);
    expect(result.stderr).toMatch(new RegExp(`^${records.length} records, `));
    // Two shops' walks at once, each one page ahead at most.
    expect(watched.mostShopsOpen).toBe(2);
    expect(watched.mostOpen).toBeGreaterThan(2);
    expect(watched.mostOpen).toBeLessThanOrEqual(4);
    expect(new Set(watched.started.map((s) => s.shop))).toEqual(new Set(shops));
    expect(existsSync(stateFileOf(out))).toBe(false);
  });

  it('should keep one walk of every shop in time order with --concurrency 1', async () => {
    const watched = new Watched(new Wire(app.baseUrl));
    const result = await posRead(
      new Wire(app.baseUrl),
      ['export', 'sales', ...PERIOD, '--limit', '50', '--concurrency', '1'],
      { env, client: { fetch: watched.fetch } },
    );
    expect(result.code).toBe(0);
    const records = parseNdjson(result.stdout);
    const times = records.map((r) => `${r.soldAt}|${r.id.padStart(20, '0')}`);
    expect(times).toEqual([...times].sort());
    expect(byShop(records)).toEqual(expected);
    expect(watched.started.every((s) => s.shop === '')).toBe(true);
  });

  it('should go on with an interrupted per-shop export with --resume, every record exactly once', async () => {
    const out = path.join(dir, 'resumed.ndjson');
    const args = ['export', 'sales', ...PERIOD, '--limit', '5', '--concurrency', '3'];
    const controller = new AbortController();
    const interrupting = new Wire(app.baseUrl);
    let pages = 0;
    // Ctrl-C as the eighth page is asked for: seven asked, some of them written.
    const fetchThenStop: typeof fetch = (input, init) => {
      if (
        (input instanceof Request ? input.url : String(input)).includes('/sales') &&
        ++pages === 8
      )
        controller.abort();
      return interrupting.fetch(input, init);
    };
    const first = await posRead(new Wire(app.baseUrl), [...args, '--out', out], {
      env,
      signal: controller.signal,
      client: { fetch: fetchThenStop },
    });
    expect(first.code).toBe(130);
    const state = JSON.parse(readFileSync(stateFileOf(out), 'utf8')) as {
      shops: Array<{ shop: string; cursor: string | null; done: boolean }>;
    };
    expect(state.shops.map((walk) => walk.shop)).toEqual(shops);
    expect(state.shops.some((walk) => walk.cursor !== null)).toBe(true);
    // Resumed one shop at a time: it goes on per shop, the way it started.
    const wire = new Wire(app.baseUrl);
    const second = await posRead(wire, [...args, '--out', out, '--resume', '--concurrency', '1'], {
      env,
    });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/\(resumed\)/);
    expect(byShop(parseNdjson(readFileSync(out, 'utf8')))).toEqual(expected);
    expect(existsSync(stateFileOf(out))).toBe(false);
    expect(wire.dataRequests().some((r) => r.url.includes('Cursor='))).toBe(true);
  });

  it('should stop every walk at the first refusal and exit with its code', async () => {
    const problem = () =>
      new Response(JSON.stringify({ status: 403, title: 'Forbidden', detail: 'not yours' }), {
        status: 403,
        headers: { 'content-type': 'application/problem+json' },
      });
    const watched = new Watched(new Wire(app.baseUrl), (shop, page) =>
      shop === shops[1] && page === 2 ? problem() : null,
    );
    const out = path.join(dir, 'refused.ndjson');
    const result = await posRead(
      new Wire(app.baseUrl),
      ['export', 'sales', ...PERIOD, '--limit', '3', '--concurrency', '3', '--out', out],
      { env, client: { fetch: watched.fetch } },
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^pos-read: forbidden: /);
    const total = [...expected.values()].flat().length;
    // Stopped early: far from every page, and every request still open then was aborted.
    expect(watched.started.length).toBeLessThan(total / 3 / 2);
    const stillOpen = [...watched.open.keys()].map((id) => watched.started[id].signal?.aborted);
    expect(stillOpen.every((aborted) => aborted === true)).toBe(true);
    // What was written (beside --out, issue 54) is whole records, each of them once, and
    // --resume goes on from there.
    expect(existsSync(out)).toBe(false);
    const written = parseNdjson(readFileSync(partialFileOf(out), 'utf8')).map((r) => r.id);
    expect(new Set(written).size).toBe(written.length);
  });

  it.each([['0'], ['17'], ['two'], ['1.5']])(
    'should refuse --concurrency %s with exit 2 before any request',
    async (value) => {
      const wire = new Wire(app.baseUrl);
      const result = await posRead(wire, ['export', 'sales', '--concurrency', value], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--concurrency is a whole number from 1 to 16/);
      expect(wire.dataRequests()).toEqual([]);
    },
  );
});
