import { createConnection } from 'mysql2/promise';
import { sample, startOpsApp, type OpsApp } from '../operations/support/management';
import { insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { forgeToken } from '../support/tokens';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

interface FeedBody {
  data: Array<{ id: string; shopCode: string }>;
  nextCursor: string;
  caughtUp: boolean;
}

describeEachDatabase('Feeds with Wait: held until a record of their shops arrives', (ctx) => {
  let ops: OpsApp;
  let nextId = 1000;
  let shopNo = 0;

  beforeAll(async () => {
    ops = await startOpsApp(ctx.db);
  });
  afterAll(async () => {
    await ops?.close();
  });

  const metric = async (name: string, labels: Record<string, string>) =>
    sample(await (await fetch(`${ops.managementUrl}/metrics`)).text(), name, labels);

  /** Inserts a sale of `shop` from a connection of the test's own, committed; when it committed. */
  async function commitSale(shop: string): Promise<{ id: string; committedAt: number }> {
    const id = ++nextId;
    const soldAt = '2026-05-10 10:00:00.000';
    if (ctx.kind === 'mysql') {
      const writer = await createConnection(ctx.db.databaseUrl as string);
      await writer.beginTransaction();
      await writer.query(
        `INSERT INTO pos_sales (id, shop_code, register_code, ticket_number, business_date, sold_at,
           currency, total_net, total_tax, total_gross) VALUES (?, ?, 'R1', 'T', ?, ?, 'EUR', 1, 0, 1)`,
        [id, shop, soldAt.slice(0, 10), soldAt],
      );
      await writer.commit();
      const committedAt = Date.now();
      await writer.end();
      return { id: String(id), committedAt };
    }
    await insertSale(ctx.db.db, { id: BigInt(id), shopCode: shop, soldAt });
    return { id: String(id), committedAt: Date.now() };
  }

  /** A new shop with one sale, a token for it, and the cursor of its caught-up sales feed. */
  async function caughtUpFeed() {
    const n = ++shopNo;
    const shop = await createShop(ctx.db.db, `WAIT${n}`);
    await commitSale(shop);
    const token = forgeToken({ claims: { sub: `waiter${n}`, shop_code: [shop] } });
    const first = await feed(`sales/feed?ShopCode=${shop}`, token);
    expect(first.body).toMatchObject({ caughtUp: true, data: [expect.anything()] });
    return { shop, token, cursor: encodeURIComponent(first.body.nextCursor) };
  }

  const feed = (query: string, token: string) =>
    http<FeedBody>(ops.baseUrl, `/api/v1.0/${query}`, { headers: bearer(token) });

  it('should answer a waiting request within a second of an insert committed by another connection', async () => {
    const { shop, token, cursor } = await caughtUpFeed();
    const waiting = feed(`sales/feed?Cursor=${cursor}&Wait=15`, token).then((res) => ({
      res,
      answeredAt: Date.now(),
    }));
    // Held before the sale commits (a condition, whatever the machine's load): the wake is measured.
    await eventually(
      async () => (await metric('pos_api_feed_waiters', { feed: 'sales' })) >= 1,
      10_000,
    );
    const sale = await commitSale(shop);
    const { res, answeredAt } = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.data.map((r) => r.id)).toEqual([sale.id]);
    expect(res.body.caughtUp).toBe(true);
    expect(answeredAt - sale.committedAt).toBeLessThan(1000);
  });

  it('should not wake a waiter of shop A for a row of shop B, and answer it empty when Wait runs out', async () => {
    const a = await caughtUpFeed();
    const b = await caughtUpFeed();
    const wakesBefore = await metric('pos_api_feed_wakes_total', { feed: 'sales' });
    const started = Date.now();
    const waiting = feed(`sales/feed?Cursor=${a.cursor}&Wait=2`, a.token);
    await eventually(
      async () => (await metric('pos_api_feed_waiters', { feed: 'sales' })) >= 1,
      1_500,
      20,
    );
    await commitSale(b.shop);
    const res = await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], caughtUp: true });
    expect(await metric('pos_api_feed_wakes_total', { feed: 'sales' })).toBe(wakesBefore);
    // Its cursor stayed where it was: the next row of A comes next.
    const sale = await commitSale(a.shop);
    const next = await feed(
      `sales/feed?Cursor=${encodeURIComponent(res.body.nextCursor)}`,
      a.token,
    );
    expect(next.body.data.map((r) => r.id)).toEqual([sale.id]);
  });

  it('should answer at once when records are already there, whatever Wait says', async () => {
    const { shop, token, cursor } = await caughtUpFeed();
    const sale = await commitSale(shop);
    const started = Date.now();
    const res = await feed(`sales/feed?Cursor=${cursor}&Wait=20`, token);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.body.data.map((r) => r.id)).toEqual([sale.id]);
  });

  it('should hold a request for a shop outside the claims the whole Wait, as a quiet shop, then answer it empty', async () => {
    const { token } = await caughtUpFeed();
    const started = Date.now();
    const res = await feed('payments/feed?ShopCode=NOT-MINE&Wait=1', token);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(res.body).toMatchObject({ data: [], caughtUp: true });
  });

  it('should poll each waited table once per interval whatever the number of waiters, and gauge them', async () => {
    const users = await Promise.all([1, 2, 3].map(() => caughtUpFeed()));
    const before = {
      sales: await metric('pos_api_feed_polls_total', { feed: 'sales' }),
      payments: await metric('pos_api_feed_polls_total', { feed: 'payments' }),
    };
    const started = Date.now();
    const held = users.flatMap(({ token, cursor }) =>
      Array.from({ length: 8 }, () => feed(`sales/feed?Cursor=${cursor}&Wait=2`, token)),
    );
    let gauge = 0;
    await eventually(
      async () => {
        gauge = await metric('pos_api_feed_waiters', { feed: 'sales' });
        return gauge === 24;
      },
      1_800,
      20,
    );
    expect(await metric('pos_api_feed_waiters', { feed: 'payments' })).toBe(0);
    const answers = await Promise.all(held);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const seconds = (Date.now() - started) / 1000;
    const polls = (await metric('pos_api_feed_polls_total', { feed: 'sales' })) - before.sales;
    // 250 ms apart: about 4 a second, the same for 24 waiters as for one.
    expect(polls).toBeGreaterThan(0);
    expect(polls).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 1);
    expect(await metric('pos_api_feed_polls_total', { feed: 'payments' })).toBe(before.payments);
    expect(gauge).toBe(24);
    expect(await metric('pos_api_feed_waiters', { feed: 'sales' })).toBe(0);
  });

  it.each(['21', '-1', '1.5', 'soon', ''])(
    'should refuse Wait=%s with a 400 problem naming Wait',
    async (wait) => {
      const { token } = await caughtUpFeed();
      const res = await http(ops.baseUrl, `/api/v1.0/cash-movements/feed?Wait=${wait}`, {
        headers: bearer(token),
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'Wait' })]);
    },
  );

  it('should refuse Wait on a list endpoint, where nothing can arrive', async () => {
    const { token } = await caughtUpFeed();
    const res = await http(ops.baseUrl, '/api/v1.0/sales?Wait=1', { headers: bearer(token) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'Wait' })]);
  });
});
