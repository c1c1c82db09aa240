import fc from 'fast-check';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { RESOURCES, ROWS, TABLE } from './resource-tables';

describeEachDatabase('Cursor endpoints: shop isolation', (ctx) => {
  let api: TestApp;
  let shops: string[];
  let unknownShop: string;

  beforeAll(async () => {
    const summary = await seedBusinessData(ctx.db.db, {
      seed: 7,
      shops: 4,
      days: 3,
      salesPerDay: 12,
      startDate: '2026-03-01',
    });
    shops = summary.shopCodes;
    unknownShop = 'NOPE01';
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const readAll = async (
    token: string,
    resource: string,
    query: string,
    limit = 37,
  ): Promise<Array<{ id: string; shopCode: string }>> => {
    const records: Array<{ id: string; shopCode: string }> = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor
        ? `Cursor=${encodeURIComponent(cursor)}&Limit=${limit}`
        : `${query}${query ? '&' : ''}Limit=${limit}`;
      const res = await http(api.baseUrl, `/api/v1.0/${resource}?${q}`, { headers: bearer(token) });
      expect(res.status).toBe(200);
      records.push(...res.body.data);
      cursor = res.body.nextCursor;
    } while (cursor);
    return records;
  };

  /** What the database holds for these shops and bounds, in (time, id) order. */
  async function expectedIds(
    resource: (typeof RESOURCES)[number],
    shopCodes: readonly string[],
    from?: string,
    to?: string,
  ): Promise<string[]> {
    if (shopCodes.length === 0) return [];
    const [table, column] = TABLE[resource];
    const rows = await ctx.db.db.query<Array<{ id: string | number }>>(
      `SELECT id FROM ${table} WHERE shop_code IN (${shopCodes.map(() => '?').join(', ')})
         AND ${ROWS[resource]} AND ${column} >= ? AND ${column} < ? ORDER BY ${column}, id`,
      [...shopCodes, from ?? '0000-01-01 00:00:00.000', to ?? '9999-12-31 00:00:00.000'],
    );
    return rows.map((r) => String(r.id));
  }

  const hourOf = (hour: number) => new Date(Date.UTC(2026, 2, 1, hour)).toISOString().slice(0, 19);

  it('should return, for any grants and any query, exactly the records of the claimed shops the filter selects and never a record of another shop (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(['SHOP001', 'SHOP002', 'SHOP003', 'SHOP004']),
        fc.constantFrom(...RESOURCES),
        fc.option(
          fc.constantFrom('SHOP001', 'SHOP002', 'SHOP003', 'SHOP004', 'NOPE01', "x' OR '1'='1"),
          { nil: undefined },
        ),
        fc.option(fc.integer({ min: 0, max: 3 * 24 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 3 * 24 }), { nil: undefined }),
        fc.integer({ min: 7, max: 500 }),
        async (claims, resource, shopCode, fromHour, spanHours, limit) => {
          const token = forgeToken({ claims: { sub: `u-${claims.join('-')}`, shop_code: claims } });
          const params = new URLSearchParams();
          if (shopCode !== undefined) params.set('ShopCode', shopCode);
          const from = fromHour === undefined ? undefined : hourOf(fromHour);
          const to = spanHours === undefined ? undefined : hourOf((fromHour ?? 0) + spanHours);
          if (from) params.set('From', from);
          if (to) params.set('To', to);
          const records = await readAll(token, resource, params.toString(), limit);
          for (const record of records) expect(claims).toContain(record.shopCode);
          if (shopCode !== undefined)
            for (const record of records) expect(record.shopCode).toBe(shopCode);
          const readable = claims.filter((c) => shopCode === undefined || c === shopCode);
          const stored = (t?: string) => (t ? `${t.replace('T', ' ')}.000` : undefined);
          expect(records.map((r) => r.id)).toEqual(
            await expectedIds(resource, readable, stored(from), stored(to)),
          );
        },
      ),
      { numRuns: 40, seed: 4242 },
    );
  });

  it('should refuse a cursor replayed with the token of another user, whatever shops that token claims', async () => {
    const owner = forgeToken({ claims: { sub: 'owner', shop_code: [shops[0], shops[1]] } });
    const first = await http(api.baseUrl, '/api/v1.0/payments?Limit=3', { headers: bearer(owner) });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    for (const claims of [[shops[0], shops[1]], shops, []]) {
      const thief = forgeToken({ claims: { sub: 'thief', shop_code: claims } });
      const replay = await http(api.baseUrl, `/api/v1.0/payments?Cursor=${first.body.nextCursor}`, {
        headers: bearer(thief),
      });
      expect(replay.status).toBe(400);
      expect(replay.text).not.toContain('"data"');
    }
  });

  it('should give each real user exactly the shops granted to them', async () => {
    expect(shops).toEqual(['SHOP001', 'SHOP002', 'SHOP003', 'SHOP004']);
    const one = await createUser(ctx.db.db, { shops: [shops[0]] });
    const two = await createUser(ctx.db.db, { shops: [shops[1], shops[3]] });
    const none = await createUser(ctx.db.db, { shops: [] });
    for (const [user, granted] of [
      [one, [shops[0]]],
      [two, [shops[1], shops[3]]],
      [none, []],
    ] as const) {
      const token = await getToken(api.baseUrl, user.username, user.password);
      for (const resource of RESOURCES) {
        const seen = new Set((await readAll(token, resource, '')).map((r) => r.shopCode));
        expect([...seen].sort()).toEqual([...granted].sort());
      }
    }
  });

  it('should answer a shop outside the claims with 200 and an empty page, the same for an existing and a non-existing shop', async () => {
    const extra = await createShop(ctx.db.db);
    const token = forgeToken({ claims: { shop_code: [shops[0]] } });
    for (const resource of RESOURCES) {
      const existing = await http(api.baseUrl, `/api/v1.0/${resource}?ShopCode=${shops[1]}`, {
        headers: bearer(token),
      });
      const empty = await http(api.baseUrl, `/api/v1.0/${resource}?ShopCode=${extra}`, {
        headers: bearer(token),
      });
      const missing = await http(api.baseUrl, `/api/v1.0/${resource}?ShopCode=${unknownShop}`, {
        headers: bearer(token),
      });
      for (const res of [existing, empty, missing]) {
        expect(res.status).toBe(200);
        expect(res.text).toBe('{"data":[],"nextCursor":null}');
      }
    }
  });

  it('should apply the token scope to a cursor too: a cursor replayed with a token that lost the shop reads nothing', async () => {
    const wide = forgeToken({ claims: { sub: 'same-user', shop_code: [shops[0]] } });
    const first = await http(api.baseUrl, `/api/v1.0/sales?ShopCode=${shops[0]}&Limit=5`, {
      headers: bearer(wide),
    });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const narrowed = forgeToken({ claims: { sub: 'same-user', shop_code: [shops[1]] } });
    const replay = await http(api.baseUrl, `/api/v1.0/sales?Cursor=${first.body.nextCursor}`, {
      headers: bearer(narrowed),
    });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ data: [], nextCursor: null });
  });
});
