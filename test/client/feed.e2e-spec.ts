import { MemoryCursorStore, PosReadClient } from '../../packages/client/src/index';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { clientOn } from './support/client-app';
import { Wire } from './support/wire';

describeEachDatabase('Client: feed() polls a feed in arrival order (issue 14)', (ctx) => {
  let app: TestApp;
  let client: PosReadClient;
  let shopCode: string;

  beforeAll(async () => {
    const seeded = await seedBusinessData(ctx.db.db, {
      seed: 14,
      shops: 2,
      days: 2,
      salesPerDay: 10,
      startDate: '2026-03-01',
    });
    shopCode = seeded.shopCodes[0];
    const user = await createUser(ctx.db.db, { shops: seeded.shopCodes });
    app = await startTestApp(ctx.db);
    client = clientOn(new Wire(app.baseUrl), user);
  });
  afterAll(async () => {
    await app?.close();
  });

  const idsOf = async (table: string) =>
    (
      await ctx.db.db.query<Array<{ id: number | string }>>(
        `SELECT id FROM ${table} WHERE shop_code = ? ORDER BY id`,
        [shopCode],
      )
    ).map((r) => String(r.id));

  it('should read every sale of the shop in id order, store the cursor, and give later arrivals on the next poll', async () => {
    const store = new MemoryCursorStore();
    const resume = { store, key: 'sales' };
    const first = [];
    for await (const sale of client.sales.feed({ shopCode, limit: 7, resume })) first.push(sale.id);
    expect(first).toEqual(await idsOf('pos_sales'));
    const stored = await store.load('sales');
    expect(stored).toEqual(expect.any(String));

    const idle = [];
    for await (const sale of client.sales.feed({ resume })) idle.push(sale.id);
    expect(idle).toEqual([]);

    const late = 900_000n;
    await insertSale(ctx.db.db, { id: late, shopCode, soldAt: '2026-02-25 09:00:00.000' });
    const poll = client.sales.feed({ resume });
    const pages = [];
    for await (const page of poll.pages()) pages.push(page);
    expect(pages.flatMap((p) => p.data.map((s) => s.id))).toEqual([String(late)]);
    expect(pages.at(-1)?.caughtUp).toBe(true);
    expect(poll.cursor).toBe(await store.load('sales'));
  });

  it('should read the payments and cash movements feeds from a cursor passed by hand too', async () => {
    const payments = client.payments.feed({ shopCode, limit: 50 });
    const ids = [];
    for await (const payment of payments) ids.push(payment.id);
    expect(ids).toEqual(await idsOf('pos_payments'));
    const again = [];
    for await (const payment of client.payments.feed({ cursor: payments.cursor ?? undefined })) {
      again.push(payment.id);
    }
    expect(again).toEqual([]);
    const movements = [];
    for await (const movement of client.cashMovements.feed({ shopCode }))
      movements.push(movement.id);
    expect(movements).toEqual(await idsOf('pos_cash_movements'));
  });
});
