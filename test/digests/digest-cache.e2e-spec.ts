import { DigestCache } from '../../src/sync/digest/digest-cache';
import { PAYMENTS } from '../../src/payments/payments.source';
import type { Row } from '../../src/database/sql-reader';
import { SALES } from '../../src/sales/sales.source';
import { Wall } from '../../src/wall/wall';
import { checksumOf } from './support/checksum-rule';
import {
  columnEdits,
  DATE,
  DAY,
  type Day,
  listedOnDate,
  PERIOD,
  seed,
  SYNCED,
} from './support/edits-behind-the-back';
import { crcFingerprint, crcOf, crcRowTexts, forgeCrc32 } from './support/crc-forgery';
import { describeEachDatabase } from '../support/describe-databases';
import { callerClaims } from '../../src/common/testing/caller.fixture';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { redis as redisServer } from '../support/requirements';
import { instancesSharingRedis } from '../support/shared-redis';
import { startTestApp, type TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';

/**
 * Issue 45: the digests' cache. A date whose fingerprint has not moved answers its stored
 * checksum; nothing stored can make an answer wrong: every column of every resource (and of the
 * sales' lines) changed behind the service's back gives the new checksum at once.
 */
describeEachDatabase('Digests: the cache of checksums', (ctx) => {
  let api: TestApp;
  let uncached: TestApp;
  let shop: string;
  let token: string;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    await seed(ctx.db.db, shop, 4501n);
    token = forgeToken({ claims: { sub: 'cache-digester', shop_code: [shop] } });
    api = await startTestApp(ctx.db);
    uncached = await startTestApp(ctx.db, { DIGEST_CACHE_TTL_SECONDS: '0' });
  });
  afterAll(async () => {
    await api?.close();
    await uncached?.close();
  });

  const digest = async (app: TestApp, route: string): Promise<Day[]> => {
    const res = await http<{ data: Day[] }>(
      app.baseUrl,
      `/api/v1.0/${route}/digest?ShopCode=${shop}&${PERIOD}`,
      // A caller per resource: each stays within the digests' calls a minute.
      { headers: bearer(forgeToken({ claims: { sub: `cache-${route}`, shop_code: [shop] } })) },
    );
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const listed = (route: string) => listedOnDate(api.baseUrl, route, shop, token);
  const outcomes = () => new Map(api.app.get(DigestCache).outcomes);

  it.each(SYNCED.map((r) => r.route))(
    'should answer a repeated digest of %s from the cache, exactly as without it',
    async (route) => {
      const first = await digest(api, route);
      const before = outcomes().get('cached') ?? 0;
      const again = await digest(api, route);
      expect(again).toEqual(first);
      // The one date with rows came from the cache; the others need no read at all.
      expect((outcomes().get('cached') ?? 0) - before).toBe(1);
      expect(await digest(uncached, route)).toEqual(first);
    },
  );

  it("should give the new checksum at once after an edit forged to keep the rows' CRC-32 (issue 57)", async () => {
    const id = 4800n;
    const marker = 'FORGE';
    await seed(ctx.db.db, shop, id);
    await ctx.db.db.query('UPDATE pos_payments SET amount = ?, reference = ? WHERE id = ?', [
      '12.50',
      marker + '0'.repeat(48),
      String(id),
    ]);
    const day = async () => (await digest(api, 'payments')).find((d) => d.date === DATE)!;
    const caller = callerClaims({ shopCodes: [shop] });
    const fingerprint = async () =>
      (await api.app.get(Wall).dayReads(caller, PAYMENTS, shop).fingerprints(DAY)).get(DATE);
    await day();
    const before = await day(); // stored, then answered from the cache
    const [texts, print] = [await crcRowTexts(ctx.db.db, shop), await fingerprint()];
    const original = texts.get(String(id))!;

    // The security review's edit: the amount changed, and 48 characters of the free-text
    // reference chosen so that the row's CRC-32, hence the old fingerprint, stays the same.
    await ctx.db.db.query('UPDATE pos_payments SET amount = ? WHERE id = ?', ['99.99', String(id)]);
    const edited = (await crcRowTexts(ctx.db.db, shop)).get(String(id))!;
    const at = edited.indexOf(marker) + marker.length;
    const forged = forgeCrc32(edited, at, 48, crcOf(original));
    await ctx.db.db.query('UPDATE pos_payments SET reference = ? WHERE id = ?', [
      marker + forged.slice(at, at + 48),
      String(id),
    ]);
    const textsAfter = await crcRowTexts(ctx.db.db, shop);
    expect(textsAfter.get(String(id))).not.toBe(original);
    expect(crcOf(textsAfter.get(String(id))!)).toBe(crcOf(original));
    // The old formula cannot tell the two states apart.
    expect(crcFingerprint(textsAfter)).toBe(crcFingerprint(texts));

    // The digest answers the new checksum at once: the new fingerprint moved.
    const after = await day();
    const records = await listed('payments');
    expect(records.find((r) => r.id === String(id))).toMatchObject({ amount: '99.99' });
    expect(after.checksum).not.toBe(before.checksum);
    expect(await fingerprint()).not.toBe(print);
    expect(after).toEqual({ date: DATE, count: records.length, checksum: checksumOf(records) });
  });

  for (const resource of SYNCED) {
    const { route } = resource;
    const changes = columnEdits(resource);

    it(`should give the new checksum at once after any of the ${changes.length} columns of ${route} changed behind the service's back`, async () => {
      const id = 4600n + BigInt(SYNCED.indexOf(resource));
      await seed(ctx.db.db, shop, id);
      for (const change of changes) {
        const day = async () => (await digest(api, route)).find((d) => d.date === DATE)!;
        await day();
        const before = await day(); // stored, then answered from the cache
        await ctx.db.db.query(
          `UPDATE ${change.table} SET ${change.name} = ? WHERE ${change.where}`,
          [change.value, String(id)],
        );
        const after = await day();
        const records = await listed(route);
        expect({
          column: `${change.table}.${change.name}`,
          moved: after.checksum !== before.checksum,
        }).toEqual({
          column: `${change.table}.${change.name}`,
          moved: true,
        });
        expect(after).toEqual({ date: DATE, count: records.length, checksum: checksumOf(records) });
      }
    });
  }
});

/**
 * MySQL and MariaDB truncate a GROUP_CONCAT at group_concat_max_len with a warning only: a
 * fingerprint over the truncated concatenation would miss a change to the rows past the cut.
 * Each statement raises the limit for itself and selects the one it ran under; a date whose rows
 * do not fit gets no fingerprint (null), and is read again at each digest.
 */
describeEachDatabase(
  "Digests: a date longer than GROUP_CONCAT's limit",
  (ctx) => {
    it('should run each fingerprint statement under its own raised limit, and give no fingerprint to a date that did not fit', async () => {
      const db = ctx.db.db;
      const shop = await createShop(db);
      for (const id of [4901n, 4902n, 4903n]) await seed(db, shop, id);
      const limits: string[] = [];
      const truncated: Row[] = [];
      /** The wall on the test's database, each statement's own limit replaced by `limit`. */
      const wallLimitedTo = (limit: number | null) => {
        const reader = {
          dialect: 'mysql' as const,
          query: async (sql: string, params: unknown[]) => {
            limits.push(...[...sql.matchAll(/group_concat_max_len = (\d+)/g)].map((m) => m[1]));
            const text =
              limit === null
                ? sql
                : sql.replace(/group_concat_max_len = \d+/g, `group_concat_max_len = ${limit}`);
            const rows = await db.query<Row[]>(text, params);
            if (text.includes('GROUP_CONCAT') && text.includes('FROM pos_sale_lines'))
              truncated.push(...rows);
            return rows;
          },
        };
        return new Wall({
          reader: () => reader,
          withPrimary: (work) => work({ ...reader, uncommitted: null }),
        });
      };
      const caller = callerClaims({ shopCodes: [shop] });
      const fingerprint = async (limit: number | null) =>
        (await wallLimitedTo(limit).dayReads(caller, SALES, shop).fingerprints(DAY)).get(DATE);
      const { fingerprint: read } = await wallLimitedTo(null)
        .dayReads(caller, SALES, shop)
        .day(DAY);
      const lines = read.split('/')[2];

      // The statements' own limit (16 MiB), far above the session's default (1 MiB on MariaDB).
      expect(await fingerprint(null)).toBe(read);
      expect(new Set(limits)).toEqual(new Set([String(16 * 1024 * 1024)]));
      expect(await db.query('SELECT @@SESSION.group_concat_max_len AS n')).not.toEqual([
        { n: String(16 * 1024 * 1024) },
      ]);
      // 3 sales of 6 lines, 32 bytes a row: 192 bytes hold the lines exactly, 191 do not.
      expect(await fingerprint(192)).toBe(read);
      truncated.length = 0;
      expect(await fingerprint(191)).toBeNull();
      // MariaDB cut the lines' concatenation silently: its digest is of 5 lines and a bit.
      expect(truncated.map((row) => [Number(row.n), Number(row.cap)])).toEqual([[6, 191]]);
      expect(`6:${String(truncated[0].h)}`).not.toBe(lines);
    });
  },
  { only: ['mysql'] },
);

describeEachDatabase(
  'Digests: the cache shared by instances through Redis',
  (ctx) => {
    const instances = instancesSharingRedis(ctx);
    let shop: string;
    let token: string;

    beforeAll(async () => {
      shop = await createShop(ctx.db.db);
      await seed(ctx.db.db, shop, 4701n);
      token = forgeToken({ claims: { sub: 'shared-digester', shop_code: [shop] } });
    });

    const digest = async (app: TestApp) => {
      const res = await http<{ data: Day[] }>(
        app.baseUrl,
        `/api/v1.0/sales/digest?ShopCode=${shop}&${PERIOD}`,
        { headers: bearer(token) },
      );
      expect(res.status).toBe(200);
      return res.body.data;
    };

    it("should answer from another instance's checksums, and compute again once they are flushed", async () => {
      const first = await digest(instances.first);
      const cache = instances.second.app.get(DigestCache);
      const cached = () => cache.outcomes.get('cached') ?? 0;
      expect(cached()).toBe(0);
      expect(await digest(instances.second)).toEqual(first);
      expect(cached()).toBe(1);
      const keys = await instances.redis.keys(`${instances.prefix}digest:*`);
      expect(keys.length).toBe(1);
      expect(await instances.redis.ttl(keys[0])).toBeGreaterThan(6 * 24 * 3600);
      await instances.redis.del(...keys);
      expect(await digest(instances.second)).toEqual(first);
      expect(cached()).toBe(1);
    });
  },
  { requires: [redisServer] },
);

describe('Digests: a cache whose Redis cannot be reached', () => {
  it('should read nothing from it, quickly, and take writes without failing', async () => {
    const { AppConfig } = await import('../../src/config/app-config');
    const config = Object.assign(new AppConfig(), { REDIS_URL: 'redis://127.0.0.1:1' });
    const cache = new DigestCache(config);
    await cache.onModuleInit();
    const started = Date.now();
    expect(await cache.get(['a', 'b'])).toEqual([null, null]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(() => cache.set([['a', 'x 1 y']])).not.toThrow();
    await cache.onApplicationShutdown();
  });
});
