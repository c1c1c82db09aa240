import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { RedisSlidingWindow } from '../../src/common/throttling/redis-sliding-window';
import { describeEachDatabase } from '../support/describe-databases';
import { redis as redisServer, requires, TEST_REDIS_URL } from '../support/requirements';
import { createShop } from '../support/factories';
import { appForBlock } from '../support/test-app';
import { getReport, reportToken } from './report-fixtures';

/** The machine's Redis (`.ci/run` starts it); shared with other specs, so only our keys are touched. */
const REDIS_URL = TEST_REDIS_URL;
const PERIOD = { From: '2026-03-01', To: '2026-03-08' };
const WINDOW_MS = 60_000;
const LIMIT = 12;

const sleepUntil = (moment: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, moment - Date.now())));

requires(redisServer).describe(RedisSlidingWindow.name, () => {
  const prefix = `pos-read-api-test:${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(REDIS_URL, {
    keyPrefix: prefix,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  afterAll(async () => {
    await redis.del('u', 'v');
    redis.disconnect();
  });

  it('should allow 12 calls in the window, refuse the next without recording it, and say when one is free', async () => {
    const window = new RedisSlidingWindow(redis);
    for (let call = 1; call <= LIMIT; call++) {
      expect(await window.hit('u', WINDOW_MS, LIMIT)).toMatchObject({ allowed: true, count: call });
    }
    const refused = await window.hit('u', WINDOW_MS, LIMIT);
    expect(refused).toMatchObject({ allowed: false, count: LIMIT });
    expect(refused.resetMs).toBeGreaterThan(WINDOW_MS - 5_000);
    expect(refused.resetMs).toBeLessThanOrEqual(WINDOW_MS);
    expect(await redis.zcard('u')).toBe(LIMIT);
    expect(await redis.pttl('u')).toBeGreaterThan(WINDOW_MS - 5_000);
    expect((await window.hit('v', WINDOW_MS, LIMIT)).allowed).toBe(true);
  });
});

describeEachDatabase(
  'TransactionDetailReport: the limit holds in every 60-second window (Redis)',
  (ctx) => {
    jest.setTimeout(120_000);

    const prefix = `pos-read-api-test:${randomBytes(6).toString('hex')}:`;
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix };
    const instances = [appForBlock(ctx, env), appForBlock(ctx, env)];
    afterAll(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it('should allow no more than 12 calls in any 60-second interval across two instances, a window boundary included', async () => {
      const token = reportToken([await createShop(ctx.db.db)]);
      const allowed: Array<{ sent: number; received: number }> = [];
      let calls = 0;
      const call = async () => {
        const sent = Date.now();
        const res = await getReport(instances[calls++ % 2].current.baseUrl, token, PERIOD);
        const received = Date.now();
        if (res.status === 200) {
          allowed.push({ sent, received });
        } else {
          expect(res.status).toBe(429);
          expect(res.headers.get('ratelimit-remaining')).toBe('0');
          const retryAfter = Number(res.headers.get('retry-after'));
          expect(res.headers.get('ratelimit-reset')).toBe(String(retryAfter));
          // Free again when the oldest of the last 12 allowed calls leaves the window.
          const oldest = allowed[allowed.length - LIMIT];
          expect(retryAfter).toBeGreaterThanOrEqual(1);
          expect(retryAfter * 1000).toBeLessThanOrEqual(oldest.received + WINDOW_MS - sent + 1_000);
        }
        return res;
      };

      const start = Date.now();
      expect((await call()).headers.get('ratelimit-remaining')).toBe('11');
      // 11 more just before the first call's minute ends: 12 in the window.
      await sleepUntil(start + 56_000);
      for (let i = 0; i < 11; i++) expect((await call()).status).toBe(200);
      // Past the minute of the first call (where a fixed window would start counting again),
      // only the first call has left the window: one more is allowed, the rest refused.
      await sleepUntil(start + WINDOW_MS + 500);
      for (let i = 0; i < 12; i++) await call();

      expect(allowed).toHaveLength(13);
      for (let i = 0; i + LIMIT < allowed.length; i++) {
        // Calls i and i + 12 are at least a minute apart (the widest bounds the client can see).
        expect(allowed[i + LIMIT].received - allowed[i].sent).toBeGreaterThanOrEqual(WINDOW_MS);
      }
    });
  },
  // Real time (about 62 s): once, on the embedded database, which plays no part in the limit.
  { only: ['sqlite'], requires: [redisServer] },
);
