import { Connection, createConnection, ResultSetHeader } from 'mysql2/promise';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { spawnService, stopService, type ServiceProcess } from '../support/service-process';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventually } from '../support/eventually';
import { FeedWaiters } from '../../src/sync/feed/feed-waiters';
import { forgeToken } from '../support/tokens';

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachDatabase('Feeds with Wait: caps, shutdown, inserts in flight', (ctx) => {
  let shop: string;
  const token = (sub: string) => forgeToken({ claims: { sub, shop_code: [shop] } });

  beforeAll(async () => {
    shop = await createShop(ctx.db.db, 'WAITCAP');
  });

  describe('caps', () => {
    let api: TestApp;
    beforeAll(async () => {
      api = await startTestApp(ctx.db, { FEED_MAX_WAITERS: '3', FEED_MAX_WAITERS_PER_USER: '2' });
    });
    afterAll(async () => {
      await api?.close();
    });
    /** Requests the instance holds by Wait now. */
    const waiting = () =>
      [...api.app.get(FeedWaiters).counts().values()].reduce((a, b) => a + b, 0);
    const wait = (sub: string) =>
      http(api.baseUrl, `/api/v1.0/payments/feed?ShopCode=${shop}&Wait=2`, {
        headers: bearer(token(sub)),
      });

    it('should refuse a user a waiting request past FEED_MAX_WAITERS_PER_USER with 429 and Retry-After, and the instance past FEED_MAX_WAITERS with 503 and Retry-After', async () => {
      // Each request is held before the next one is sent: a condition, not a time.
      const held = [wait('capped-1'), wait('capped-1')];
      await eventually(() => waiting() === 2, 10_000, 20);
      const third = await wait('capped-1');
      expect(third.status).toBe(429);
      expect(third.headers.get('content-type')).toContain('application/problem+json');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(third.body.detail).toContain('2 feed requests of one user');
      held.push(wait('capped-2'));
      await eventually(() => waiting() === 3, 10_000, 20);
      const full = await wait('capped-3');
      expect(full.status).toBe(503);
      expect(full.headers.get('content-type')).toContain('application/problem+json');
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200, 200]);
      // Answered waiters leave room: the same user waits again.
      expect((await wait('capped-1')).status).toBe(200);
    });
  });

  it('should answer a waiting request at once with its page on SIGTERM, and exit 0', async () => {
    let service: ServiceProcess | undefined;
    try {
      service = await spawnService({
        DATA_DIR: ctx.db.dataDir,
        ...(ctx.db.appDatabaseUrl ? { DATABASE_URL: ctx.db.appDatabaseUrl } : {}),
      });
      const waiting = http(service.baseUrl, `/api/v1.0/sales/feed?ShopCode=${shop}&Wait=20`, {
        headers: bearer(token('sigterm')),
      });
      // Held (the waiters' gauge) before the signal: a condition, not a time.
      await eventually(async () => {
        const text = await (await fetch(`${service!.managementUrl}/metrics`)).text();
        return /^pos_api_feed_waiters\{feed="sales"\} 1$/m.test(text);
      }, 10_000);
      const signalled = Date.now();
      service.child.kill('SIGTERM');
      const res = await waiting;
      expect(Date.now() - signalled).toBeLessThan(2000);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ data: [], caughtUp: true });
      await expect(service.exited).resolves.toEqual({ code: 0, signal: null });
    } finally {
      await stopService(service);
    }
  });
});

// Real concurrent transactions: SQLite's single writer never leaves an id in flight below a
// committed one, so there is nothing to hold a waiter there.
describeEachDatabase(
  'Feeds with Wait: an insert in flight',
  (ctx) => {
    it('should deliver to a waiter a row whose insert was in flight when a later id committed, within a second of its commit', async () => {
      const api = await startTestApp(ctx.db);
      const writers: Connection[] = [];
      try {
        const own = await createShop(ctx.db.db, 'WAITFLY');
        const reader = forgeToken({ claims: { sub: 'inflight', shop_code: [own] } });
        const feed = (query: string) =>
          http(api.baseUrl, `/api/v1.0/sales/feed?${query}`, { headers: bearer(reader) });
        const first = await feed(`ShopCode=${own}`);
        const cursor = encodeURIComponent(first.body.nextCursor);
        for (let i = 0; i < 2; i++)
          writers.push(await createConnection(ctx.db.databaseUrl as string));
        const insert = async (into: Connection) => {
          const [result] = await into.query<ResultSetHeader>(
            `INSERT INTO pos_sales (shop_code, register_code, ticket_number, business_date, sold_at,
             currency, total_net, total_tax, total_gross) VALUES (?, 'R1', 'T', '2026-05-10', '2026-05-10 10:00:00.000', 'EUR', 1, 0, 1)`,
            [own],
          );
          return String(result.insertId);
        };
        const waiting = feed(`Cursor=${cursor}&Wait=15`).then((res) => ({ res, at: Date.now() }));
        await writers[0].beginTransaction();
        const earlier = await insert(writers[0]);
        const later = await insert(writers[1]);
        // The later id is committed and seen; the earlier one holds the page for 3 s more.
        await sleep(3000);
        await writers[0].commit();
        const committedAt = Date.now();
        const { res, at } = await waiting;
        expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([earlier, later]);
        expect(at - committedAt).toBeLessThan(2500);
      } finally {
        for (const writer of writers) await writer.end();
        await api.close();
      }
    });
  },
  { only: ['mysql'] },
);
