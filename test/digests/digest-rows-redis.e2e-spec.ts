import { CostLedger } from '../../src/common/throttling/cost-ledger';
import { insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { appBehindRedisProxy } from '../support/redis-proxy-app';
import { redis as redisServer } from '../support/requirements';
import { instancesSharingRedis } from '../support/shared-redis';
import { forgeToken } from '../support/tokens';

jest.setTimeout(60_000);

const ROWS_PER_MINUTE = 6;
const PERIOD = 'From=2026-03-01&To=2026-03-08';
const PROBLEM = /^application\/problem\+json/;
const ROWS_REFUSAL =
  'Digest limit exceeded (DIGEST_ROWS_PER_MINUTE): at most 6 rows read a minute per user by digests, day closes and reports.';

let users = 0;
const newUser = (shop: string) => {
  const sub = `row-reader${++users}-${process.pid}`;
  return { sub, token: forgeToken({ claims: { sub, jti: `r${users}`, shop_code: [shop] } }) };
};

/** Eight sales of one shop, on two days of PERIOD: a digest of it reads at least eight rows. */
async function seedShop(db: Parameters<typeof insertSale>[0], first: bigint): Promise<string> {
  const shop = await createShop(db);
  const lines = [{ quantity: '1.000', unitPrice: '5.00', net: '5.00', tax: '1.05', gross: '6.05' }];
  for (let i = 0n; i < 8n; i++) {
    const soldAt = `2026-03-0${2 + Number(i % 2n)} 1${i}:00:00.000`;
    await insertSale(db, { id: first + i, shopCode: shop, soldAt, lines });
  }
  return shop;
}

const digestOf = (base: string, shop: string, token: string) =>
  http(base, `/api/v1.0/sales/digest?ShopCode=${shop}&${PERIOD}`, { headers: bearer(token) });

/**
 * Issue 54, 1: the rows the expensive reads of a user read in a minute (DIGEST_ROWS_PER_MINUTE),
 * counted in Redis, so two instances count the same rows; a cached digest reads almost none.
 */
describeEachDatabase(
  'Digests: the rows a user reads a minute, across instances (Redis)',
  (ctx) => {
    const instances = instancesSharingRedis(ctx, {
      DIGEST_ROWS_PER_MINUTE: String(ROWS_PER_MINUTE),
    });
    let shop: string;

    beforeAll(async () => {
      shop = await seedShop(ctx.db.db, 954_100n);
    });

    it("should charge a digest's rows on one instance and refuse the same user's next on the other with 429 naming the limit, not another user", async () => {
      const user = newUser(shop);
      expect((await digestOf(instances.first.baseUrl, shop, user.token)).status).toBe(200);
      const ledger = instances.second.app.get(CostLedger);
      const key = `digest-budget:${user.sub}`;
      for (let waited = 0; (await ledger.spent(key)).spent === 0; waited += 20) {
        if (waited > 5000) throw new Error('the rows were never charged');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await ledger.spent(key)).spent).toBeGreaterThanOrEqual(8);
      const refused = await digestOf(instances.second.baseUrl, shop, user.token);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toMatch(PROBLEM);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(50);
      expect(refused.body.detail).toBe(ROWS_REFUSAL);
      expect((await digestOf(instances.second.baseUrl, shop, newUser(shop).token)).status).toBe(
        200,
      );
      const keys = await instances.redis.keys(`${instances.prefix}cost:*`);
      expect(keys.length).toBeGreaterThan(0);
    });

    it('should stream a bulk read to a user past the rows, and charge it none of them (decision 55.4.1)', async () => {
      const user = newUser(shop);
      const ledger = instances.second.app.get(CostLedger);
      const key = `digest-budget:${user.sub}`;
      // Digests until the rows are spent (a digest from the cache reads only its fingerprints).
      let status = 200;
      for (let calls = 0; status === 200; calls++) {
        if (calls > 10) throw new Error('the rows were never spent');
        status = (await digestOf(instances.second.baseUrl, shop, user.token)).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(429);
      const spent = (await ledger.spent(key)).spent;
      expect(spent).toBeGreaterThanOrEqual(ROWS_PER_MINUTE);
      const bulk = await http(
        instances.second.baseUrl,
        `/api/v1.0/sales/bulk?ShopCode=${shop}&${PERIOD}`,
        { headers: bearer(user.token) },
      );
      expect(bulk.status).toBe(200);
      const lines = String(bulk.text)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string });
      expect(lines.filter((line) => line.type === 'record')).toHaveLength(8);
      expect(lines.at(-1)?.type).toBe('end');
      await new Promise((r) => setTimeout(r, 200));
      expect((await ledger.spent(key)).spent).toBe(spent);
    });
  },
  { requires: [redisServer] },
);

describeEachDatabase(
  'Digests: a Redis outage never answers a wrong share',
  (ctx) => {
    const behind = appBehindRedisProxy(ctx, 'digest-rows', {
      DIGEST_ROWS_PER_MINUTE: String(ROWS_PER_MINUTE),
    });
    let shop: string;

    beforeAll(async () => {
      shop = await seedShop(ctx.db.db, 954_200n);
    });

    it('should answer 503 while the rows cannot be counted, neither 200 uncounted nor 429, and find the rows charged before the outage when Redis returns', async () => {
      const { api, proxy } = behind;
      const spender = newUser(shop);
      const fresh = newUser(shop);
      expect((await digestOf(api.baseUrl, shop, spender.token)).status).toBe(200);
      const ledger = api.app.get(CostLedger);
      for (let waited = 0; (await ledger.spent(`digest-budget:${spender.sub}`)).spent === 0;) {
        if ((waited += 20) > 5000) throw new Error('the rows were never charged');
        await new Promise((r) => setTimeout(r, 20));
      }
      await proxy.cut();
      for (const user of [spender, fresh]) {
        const res = await digestOf(api.baseUrl, shop, user.token);
        expect([res.status, res.body.detail]).toEqual([
          503,
          'The digest budget cannot be checked right now; retry shortly.',
        ]);
        expect(res.headers.get('retry-after')).toBeTruthy();
      }
      await proxy.restore();
      let again = await digestOf(api.baseUrl, shop, fresh.token);
      for (let tries = 0; again.status === 503 && tries < 50; tries++) {
        await new Promise((r) => setTimeout(r, 200));
        again = await digestOf(api.baseUrl, shop, fresh.token);
      }
      expect(again.status).toBe(200);
      const spent = await digestOf(api.baseUrl, shop, spender.token);
      expect([spent.status, spent.body.detail]).toEqual([429, ROWS_REFUSAL]);
    });
  },
  { requires: [redisServer] },
);
