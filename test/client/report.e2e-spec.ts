import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { RateLimitError, Sleep } from '../../packages/client/src/index';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { redis as redisServer, TEST_REDIS_URL } from '../support/requirements';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { clientOn } from './support/client-app';
import { Wire } from './support/wire';

const REDIS_URL = TEST_REDIS_URL;
const PERIOD = { from: '2026-03-02', to: '2026-03-04' };

jest.setTimeout(60_000);

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

describeEachDatabase(
  'Client: TransactionDetailReport and its 12 calls a minute (issue 15)',
  (ctx) => {
    // The report's counters live in Redis under a prefix of this spec's own, so the test can make
    // the minute pass: deleting them is what the end of the window does.
    const prefix = `pos-read-api-client-test:${randomBytes(6).toString('hex')}:`;
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    const minutePasses = async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    };
    let app: TestApp;
    let shops: string[];

    beforeAll(async () => {
      await redis.connect();
      shops = (
        await seedBusinessData(ctx.db.db, {
          seed: 9,
          shops: 1,
          days: 2,
          salesPerDay: 8,
          startDate: '2026-03-02',
        })
      ).shopCodes;
      app = await startTestApp(ctx.db, { REDIS_URL, REDIS_KEY_PREFIX: prefix });
    });
    afterAll(async () => {
      await app?.close();
      await minutePasses();
      redis.disconnect();
    });

    /** A fresh user (its own count) whose 12 calls of the minute are used up. */
    async function exhausted(options: Parameters<typeof clientOn>[2] = {}) {
      const wire = new Wire(app.baseUrl);
      const client = clientOn(wire, await createUser(ctx.db.db, { shops }), options);
      for (let call = 0; call < 12; call++) await client.reports.transactionDetail(PERIOD);
      return { wire, client };
    }

    it('should return the report as JSON, rows and totals, and as a CSV stream with the same rows', async () => {
      const client = clientOn(new Wire(app.baseUrl), await createUser(ctx.db.db, { shops }));
      const json = await client.reports.transactionDetail({ ...PERIOD, shopCode: shops[0] });
      expect(json.rows.length).toBeGreaterThan(0);
      expect(json.totals.lines + json.totals.voidedLines).toBe(json.rows.length);
      const csv = await client.reports.transactionDetail({ ...PERIOD, format: 'csv' });
      const rows: Array<Record<string, string>> = parse(await streamText(csv), { columns: true });
      expect(rows.map((r) => `${r.saleId}/${r.lineNo}`)).toEqual(
        json.rows.map((r) => `${r.saleId}/${r.lineNo}`),
      );
    });

    it('should wait Retry-After on a 429 and then make the call again (fake sleep: the minute passes)', async () => {
      const waits: number[] = [];
      const sleep: Sleep = async (ms) => {
        waits.push(ms);
        await minutePasses();
      };
      const { wire, client } = await exhausted({ sleep });
      const report = await client.reports.transactionDetail(PERIOD);
      expect(report.rows.length).toBeGreaterThan(0);
      expect(wire.dataRequests().map((r) => r.status)).toEqual([...Array(12).fill(200), 429, 200]);
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThanOrEqual(1000);
      expect(waits[0]).toBeLessThanOrEqual(60_000);
      expect(wire.tokenRequests).toBe(1);
    });

    it('should throw RateLimitError with Retry-After at once when the wait is longer than maxRateLimitWaitMs', async () => {
      const waits: number[] = [];
      const { client } = await exhausted({
        retry: { maxRateLimitWaitMs: 500 },
        sleep: async (ms) => void waits.push(ms),
      });
      const error = await client.reports.transactionDetail(PERIOD).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(waits).toEqual([]);
    });

    it('should stop waiting for Retry-After when the call is cancelled with an AbortSignal', async () => {
      const { client } = await exhausted();
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 200);
      await expect(
        client.reports.transactionDetail({ ...PERIOD, signal: controller.signal }),
      ).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  },
  { requires: [redisServer] },
);
