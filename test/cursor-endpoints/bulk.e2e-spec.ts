import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { MAX_BULK_DAYS } from '../../src/config/limits';
import type { BulkLine } from '../../src/sync/bulk/bulk-read';
import { insertRowAt } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { RESOURCES, SOURCE, SYNCED_RESOURCES, YEAR } from './resource-tables';

type Rec = { id: string } & Record<string, unknown>;
type Line = BulkLine<Rec>;

/** The stream's lines, parsed; the text of its record lines, as the end line's checksum takes them. */
function linesOf(text: string): { lines: Line[]; recordText: string } {
  const raw = text.split('\n');
  expect(raw.pop()).toBe(''); // every line ends with its newline
  const lines = raw.map((line) => JSON.parse(line) as Line);
  const recordText = raw
    .filter((_, i) => lines[i].type === 'record')
    .map((line) => `${line}\n`)
    .join('');
  return { lines, recordText };
}

const recordsOf = (lines: Line[]): Rec[] =>
  lines.flatMap((line) => (line.type === 'record' ? [line.record] : []));

/**
 * Issue 55, item 3: the bulk read of history (GET /<resource>/bulk): one shop and period in one
 * NDJSON stream, every record as the list gives it and in its order, a start line with the feed's
 * cursor taken before the read, checkpoints that resume a cut stream without loss or doubles, an
 * end line with the count and checksum of what was sent; the lists' scope and 400s.
 */
describeEachDatabase('Bulk read: one shop and period in one stream', (ctx) => {
  let api: TestApp;
  let token: string;
  const [A, B, C] = ['BULKA', 'BULKB', 'BULKC'];
  /** Rows of each resource in shop A: past one checkpoint (1,000 records). */
  const MANY = 1_150;
  let nextId = 1;

  /**
   * Row `id` of `resource`: a payment's sale is the sale of the same id; drawer sessions (opening
   * floats) share the cash movements' table, so their ids are offset.
   */
  const insert = (resource: string, shop: string, at: string, id: number, db = ctx.db.db) =>
    insertRowAt(
      db,
      SOURCE[resource],
      { id: BigInt(id + (resource === 'cash-drawer-sessions' ? 500_000 : 0)), shopCode: shop, at },
      resource === 'sales' || resource === 'payments' ? {} : { sale_id: null },
    );

  beforeAll(async () => {
    for (const shop of [A, B, C]) await createShop(ctx.db.db, shop);
    for (let i = 0; i < MANY; i++) {
      // Business time goes back and forth across the year; arrival (id) order is another.
      const day = String(1 + ((i * 7) % 28)).padStart(2, '0');
      const month = String(1 + ((i * 5) % 12)).padStart(2, '0');
      const at = `2026-${month}-${day} ${String(8 + (i % 12)).padStart(2, '0')}:00:00.000`;
      const id = nextId++;
      for (const resource of RESOURCES) await insert(resource, [A, A, B, C][i % 4], at, id);
    }
    token = forgeToken({ claims: { sub: 'bulk-reader', shop_code: [A, B] } });
    api = await startTestApp(ctx.db);
  }, 300_000);
  afterAll(async () => {
    await api?.close();
  });

  const bulk = (resource: string, query: string, headers: Record<string, string> = {}) =>
    http(api.baseUrl, `/api/v1.0/${resource}/bulk?${query}`, {
      headers: { ...bearer(token), ...headers },
    });

  /** Every record of the list's pages for the same query, in order. */
  async function listed(resource: string, query: string): Promise<Rec[]> {
    const records: Rec[] = [];
    let next = query;
    for (;;) {
      const res = await http<{ data: Rec[]; nextCursor: string | null }>(
        api.baseUrl,
        `/api/v1.0/${resource}?${next}`,
        { headers: bearer(token) },
      );
      expect(res.status).toBe(200);
      records.push(...res.body.data);
      if (!res.body.nextCursor) return records;
      next = `Cursor=${encodeURIComponent(res.body.nextCursor)}`;
    }
  }

  it.each(RESOURCES)(
    'should stream every record of %s of the shop and period as the list gives them, with its start, checkpoints and end',
    async (resource) => {
      const res = await bulk(resource, `ShopCode=${A}&${YEAR}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const { lines, recordText } = linesOf(res.text);
      const records = recordsOf(lines);
      expect(records).toEqual(await listed(resource, `ShopCode=${A}&${YEAR}&Limit=500`));
      expect(records.length).toBeGreaterThan(500);
      expect(lines[0]).toMatchObject({
        type: 'start',
        resource,
        shopCode: A,
        from: '2026-01-01T00:00:00.000',
        to: '2027-01-01T00:00:00.000',
      });
      const start = lines[0] as Extract<Line, { type: 'start' }>;
      expect(start.feedCursor === null).toBe(!SYNCED_RESOURCES.includes(resource));
      const checkpoints = lines.filter((line) => line.type === 'checkpoint');
      expect(checkpoints.map((line) => line.count)).toEqual(records.length > 1000 ? [1000] : []);
      const digest = createHash('sha256').update(recordText).digest('hex');
      expect(lines[lines.length - 1]).toEqual({
        type: 'end',
        count: records.length,
        checksum: `sha256:${digest}`,
      });
    },
  );

  it.each(RESOURCES)(
    'should stream by business date exactly the records of %s the list gives for the same dates, in its order',
    async (resource) => {
      const dates = 'BusinessDateFrom=2026-03-01&BusinessDateTo=2026-06-01';
      const res = await bulk(resource, `ShopCode=${A}&${dates}`);
      expect(res.status).toBe(200);
      const { lines, recordText } = linesOf(res.text);
      const records = recordsOf(lines);
      expect(records.length).toBeGreaterThan(50);
      expect(records).toEqual(await listed(resource, `ShopCode=${A}&${dates}&Limit=500`));
      expect(lines[0]).toMatchObject({
        type: 'start',
        shopCode: A,
        from: null,
        to: null,
        businessDateFrom: '2026-03-01',
        businessDateTo: '2026-06-01',
      });
      const checksum = `sha256:${createHash('sha256').update(recordText).digest('hex')}`;
      expect(lines[lines.length - 1]).toEqual({ type: 'end', count: records.length, checksum });
      // Past the list's 92 days: the year by its dates holds every record of the year's period.
      const year = await bulk(
        resource,
        `ShopCode=${A}&BusinessDateFrom=2026-01-01&BusinessDateTo=2027-01-01`,
      );
      const byDates = recordsOf(linesOf(year.text).lines).map((r) => r.id);
      const byPeriod = recordsOf(
        linesOf((await bulk(resource, `ShopCode=${A}&${YEAR}`)).text).lines,
      );
      expect([...byDates].sort()).toEqual(byPeriod.map((r) => r.id).sort());
    },
  );

  it('should give the same stream without records for a shop outside the claims and for an unknown one', async () => {
    const streams = await Promise.all(
      [C, 'NO-SUCH-SHOP'].map(async (shop) => {
        const res = await bulk('sales', `ShopCode=${shop}&${YEAR}`);
        expect(res.status).toBe(200);
        const { lines } = linesOf(res.text);
        return lines.map((line) =>
          line.type === 'start' ? { ...line, shopCode: '', feedCursor: '' } : line,
        );
      }),
    );
    expect(streams[0]).toEqual(streams[1]);
    expect(streams[0].map((line) => line.type)).toEqual(['start', 'end']);
    expect(streams[0][1]).toMatchObject({ count: 0 });
  });

  it('should resume a stream cut anywhere from its last checkpoint, losing and doubling nothing', async () => {
    const whole = await bulk('payments', `ShopCode=${A}&${YEAR}`);
    const all = recordsOf(linesOf(whole.text).lines);
    // Cuts at fixed fractions of the bytes: before, at and after the checkpoint's line.
    const checkpointAt = whole.text.indexOf('{"type":"checkpoint"');
    const cuts = [0.05, 0.3, 0.6, 0.9].map((f) => Math.floor(whole.text.length * f));
    cuts.push(checkpointAt, checkpointAt + 20, whole.text.indexOf('\n', checkpointAt) + 1);
    for (const cut of cuts) {
      // What a client kept: the complete lines before the cut, up to its last checkpoint.
      const kept = whole.text.slice(0, whole.text.lastIndexOf('\n', cut - 1) + 1);
      const { lines } = linesOf(kept);
      const last = lines.map((line) => line.type).lastIndexOf('checkpoint');
      const upTo = last < 0 ? [] : lines.slice(0, last + 1);
      const checkpoint = upTo[upTo.length - 1] as Extract<Line, { type: 'checkpoint' }> | undefined;
      const again = await bulk(
        'payments',
        checkpoint ? `Cursor=${encodeURIComponent(checkpoint.cursor)}` : `ShopCode=${A}&${YEAR}`,
      );
      expect(again.status).toBe(200);
      const resumed = linesOf(again.text).lines;
      expect(resumed[0]).toMatchObject({ type: 'start', shopCode: A });
      if (checkpoint) expect(resumed[0]).toMatchObject({ feedCursor: null });
      expect([...recordsOf(upTo), ...recordsOf(resumed)]).toEqual(all);
    }
  });

  it("should hand over to the feed: the start line's cursor delivers what commits after it, late uploads included", async () => {
    const starts = new Map<string, string>();
    for (const resource of SYNCED_RESOURCES) {
      const res = await bulk(resource, `ShopCode=${A}&${YEAR}`);
      const start = linesOf(res.text).lines[0] as Extract<Line, { type: 'start' }>;
      starts.set(resource, start.feedCursor!);
    }
    // Rung up in March, uploaded now: behind the streams' position in time, ahead in arrival
    // (above every id, the drawer sessions' too, as a new row's auto-increment id is).
    const id = 900_000;
    nextId = id + 1;
    for (const resource of SYNCED_RESOURCES)
      await insert(resource, A, '2026-03-02 10:00:00.000', id);
    for (const resource of SYNCED_RESOURCES) {
      const feed = (cursor: string) =>
        http<{ data: Rec[]; nextCursor: string }>(
          api.baseUrl,
          `/api/v1.0/${resource}/feed?Cursor=${encodeURIComponent(cursor)}`,
          { headers: bearer(token) },
        );
      const after = await feed(starts.get(resource)!);
      expect(after.status).toBe(200);
      expect(after.body.data.map((record) => record.id)).toEqual([String(id)]);
    }
  });

  if (ctx.kind === 'mysql') {
    it('should start the feed below an insert still in flight, so that it is delivered once it commits', async () => {
      const runner = ctx.db.db.createQueryRunner();
      await runner.connect();
      try {
        await runner.startTransaction();
        const id = nextId++;
        await insert('sales', A, '2026-04-01 10:00:00.000', id, runner as unknown as DataSource);
        // A later id commits first: the feed's end is past it, the one in flight below.
        await insert('sales', A, '2026-04-01 11:00:00.000', nextId++);
        const res = await bulk('sales', `ShopCode=${A}&${YEAR}`);
        const start = linesOf(res.text).lines[0] as Extract<Line, { type: 'start' }>;
        await runner.commitTransaction();
        const fed = await http<{ data: Rec[] }>(
          api.baseUrl,
          `/api/v1.0/sales/feed?Cursor=${encodeURIComponent(start.feedCursor!)}`,
          { headers: bearer(token) },
        );
        expect(fed.body.data.map((record) => record.id)).toEqual([String(id), String(id + 1)]);
      } finally {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    });
  }

  it('should compress the stream when asked, to the same lines', async () => {
    const plain = await bulk('sales', `ShopCode=${B}&${YEAR}`);
    const response = await fetch(`${api.baseUrl}/api/v1.0/sales/bulk?ShopCode=${B}&${YEAR}`, {
      headers: { ...bearer(token), 'accept-encoding': 'gzip' },
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    // fetch decodes the gzip body itself: the lines must be the uncompressed stream's.
    const text = await response.text();
    expect(recordsOf(linesOf(text).lines)).toEqual(recordsOf(linesOf(plain.text).lines));
  });

  it.each([
    [
      'a period past the longest',
      `ShopCode=${A}&From=2020-01-01&To=2026-01-01`,
      'To',
      `must be at most ${MAX_BULK_DAYS} days after From`,
    ],
    ['no shop', YEAR, 'ShopCode', 'is required (without Cursor)'],
    ['no period', `ShopCode=${A}`, 'From', 'is required (without Cursor)'],
    [
      'a period and business dates at once',
      `ShopCode=${A}&${YEAR}&BusinessDateFrom=2026-01-01&BusinessDateTo=2026-02-01`,
      'From',
      'must not be given with BusinessDateFrom and BusinessDateTo',
    ],
    [
      'half a pair of business dates',
      `ShopCode=${A}&BusinessDateFrom=2026-01-01`,
      'BusinessDateTo',
      'is required with BusinessDateFrom',
    ],
    [
      'business dates past the longest',
      `ShopCode=${A}&BusinessDateFrom=2020-01-01&BusinessDateTo=2026-01-01`,
      'BusinessDateTo',
      `must be at most ${MAX_BULK_DAYS} days after BusinessDateFrom`,
    ],
    [
      'To before From',
      `ShopCode=${A}&From=2026-02-01&To=2026-01-01`,
      'From',
      'must not be after To',
    ],
    ['a Limit (the stream has none)', `ShopCode=${A}&${YEAR}&Limit=10`, 'Limit', undefined],
  ])('should refuse %s with a problem naming the parameter', async (_, query, field, message) => {
    const res = await bulk('sales', query);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const error = (res.body as { errors: Array<{ field: string; message: string }> }).errors.find(
      (e) => e.field === field,
    );
    expect(error).toBeDefined();
    if (message) expect(error!.message).toBe(message);
  });

  it("should refuse a list page's cursor, and answer 401 without a token", async () => {
    const page = await http<{ nextCursor: string }>(
      api.baseUrl,
      `/api/v1.0/sales?ShopCode=${A}&${YEAR}&Limit=5`,
      { headers: bearer(token) },
    );
    const res = await bulk('sales', `Cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expect(res.status).toBe(400);
    const anonymous = await http(api.baseUrl, `/api/v1.0/sales/bulk?ShopCode=${A}&${YEAR}`);
    expect(anonymous.status).toBe(401);
  });
});
