import { PosReadClient } from '../../packages/client/src/index';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { clientOn } from './support/client-app';
import { idsInDatabase } from './support/database-ids';
import { Wire } from './support/wire';

const PERIOD = { from: '2026-03-02T00:00:00', to: '2026-03-04T00:00:00' };
const LIMIT = 5;

/** Every data request the client starts, when it starts it (before any answer), and its signal. */
class Started {
  readonly signals: AbortSignal[] = [];
  constructor(private readonly wire: Wire) {}
  get count(): number {
    return this.signals.length;
  }
  readonly fetch: typeof fetch = (input, init) => {
    if (!String(input instanceof Request ? input.url : input).endsWith('/Token')) {
      this.signals.push(init?.signal ?? new AbortController().signal);
    }
    return this.wire.fetch(input, init);
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 30));

describeEachDatabase('Client: one page ahead (issue 29)', (ctx) => {
  let app: TestApp;
  let user: { username: string; password: string };
  let shopCode: string;
  let started: Started;
  let client: PosReadClient;

  beforeAll(async () => {
    const seeded = await seedBusinessData(ctx.db.db, {
      seed: 29,
      shops: 2,
      days: 3,
      salesPerDay: 10,
      startDate: '2026-03-01',
    });
    shopCode = seeded.shopCodes[0];
    user = await createUser(ctx.db.db, { shops: seeded.shopCodes });
    app = await startTestApp(ctx.db);
  });
  beforeEach(() => {
    const wire = new Wire(app.baseUrl);
    started = new Started(wire);
    client = clientOn(wire, user, { fetch: started.fetch });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('should ask for the next page while the consumer works on this one, never more than one ahead', async () => {
    const expected = await idsInDatabase(ctx.db.db, 'sales', { shopCode, ...PERIOD });
    expect(expected.length).toBeGreaterThan(3 * LIMIT);
    const seenAtPage: number[] = [];
    const ids: string[] = [];
    for await (const page of client.sales.list({ shopCode, ...PERIOD, limit: LIMIT }).pages()) {
      await tick(); // the consumer's work: the page ahead has time to arrive
      seenAtPage.push(started.count);
      ids.push(...page.data.map((sale) => sale.id));
    }
    const pages = seenAtPage.length;
    expect(pages).toBe(Math.ceil(expected.length / LIMIT));
    // While page i (from 0) is worked on, page i + 1 is asked for, and nothing beyond it.
    expect(seenAtPage).toEqual(seenAtPage.map((_, i) => Math.min(i + 2, pages)));
    expect(started.count).toBe(pages);
    expect(ids).toEqual(expected);
  });

  it('should abort the page ahead when the consumer stops early', async () => {
    for await (const page of client.payments.list({ shopCode, ...PERIOD, limit: LIMIT }).pages()) {
      expect(page.data).toHaveLength(LIMIT);
      await tick();
      break;
    }
    expect(started.count).toBe(2);
    expect(started.signals[1].aborted).toBe(true);
  });

  it('should ask for one page at a time with prefetch off', async () => {
    const seenAtPage: number[] = [];
    const list = client.cashMovements.list({ shopCode, ...PERIOD, limit: LIMIT, prefetch: false });
    for await (const page of list.pages()) {
      await tick();
      seenAtPage.push(started.count);
      expect(page.data.length).toBeLessThanOrEqual(LIMIT);
    }
    expect(seenAtPage).toEqual(seenAtPage.map((_, i) => i + 1));
  });

  it('should read a feed one page ahead and ask for nothing after the caught-up page', async () => {
    const expected = await idsInDatabase(ctx.db.db, 'sales', {
      shopCode,
      from: '2000-01-01T00:00:00',
      to: '2100-01-01T00:00:00',
    });
    const seenAtPage: number[] = [];
    const ids: string[] = [];
    for await (const page of client.sales.feed({ shopCode, limit: LIMIT }).pages()) {
      await tick();
      seenAtPage.push(started.count);
      ids.push(...page.data.map((sale) => sale.id));
    }
    const pages = seenAtPage.length;
    expect(seenAtPage).toEqual(seenAtPage.map((_, i) => Math.min(i + 2, pages)));
    expect(started.count).toBe(pages);
    expect([...ids].sort()).toEqual([...expected].sort());
    expect(new Set(ids).size).toBe(ids.length);
  });
});
