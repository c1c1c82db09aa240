import { describeEachDatabase } from '../support/describe-databases';
import { insertSale } from '../support/business-factories';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { RESOURCES } from './resource-tables';

const PROBLEM = /^application\/problem\+json/;

describeEachDatabase('Cursor endpoints: bad input is a 400 naming the parameter', (ctx) => {
  let api: TestApp;
  let shop: string;
  let token: string;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    for (let i = 1; i <= 5; i++) {
      await insertSale(ctx.db.db, {
        id: BigInt(i),
        shopCode: shop,
        soldAt: `2026-03-0${i} 10:00:00.000`,
      });
    }
    token = forgeToken({ claims: { sub: 'validator', shop_code: [shop] } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = (resource: string, query: string, t = token) =>
    http(api.baseUrl, `/api/v1.0/${resource}?${query}`, { headers: bearer(t) });

  const cases: Array<[string, string, string]> = [
    ['a zone designator Z', 'From=2026-03-01T00:00:00Z', 'From'],
    ['a zone offset', 'To=2026-03-01T00:00:00%2B01:00', 'To'],
    ['an impossible date', 'From=2026-02-30', 'From'],
    ['an impossible time', 'To=2026-03-01T24:00:00', 'To'],
    ['a non-date', 'From=yesterday', 'From'],
    ['From after To', 'From=2026-03-02&To=2026-03-01', 'From'],
    ['Limit 0', 'Limit=0', 'Limit'],
    ['Limit 501', 'Limit=501', 'Limit'],
    ['a non-integer Limit', 'Limit=1.5', 'Limit'],
    ['a negative Limit', 'Limit=-1', 'Limit'],
    ['a non-numeric Limit', 'Limit=abc', 'Limit'],
    ['an unknown parameter', 'Page=2', 'Page'],
    ['a repeated parameter', 'ShopCode=A1&ShopCode=A1', 'ShopCode'],
    ['a parameter repeated in another case', 'ShopCode=A1&shopcode=A2', 'ShopCode'],
    ['an over-long ShopCode', `ShopCode=${'A'.repeat(65)}`, 'ShopCode'],
    ['a huge value', `From=${'9'.repeat(5000)}`, 'From'],
    ['a tampered cursor', 'Cursor=WzEsInNhbGVzIl0.AAAA', 'Cursor'],
    ['a cursor that is not one', "Cursor=' OR 1=1 --", 'Cursor'],
  ];

  describe.each(RESOURCES)('%s', (resource) => {
    it.each(cases)('should answer %s with a 400 problem naming it', async (_name, query, field) => {
      const res = await get(resource, query);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(PROBLEM);
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect(res.text).not.toMatch(/SELECT|sqlite|mysql|at \w+ \(/i);
    });

    it('should match parameter names case-insensitively', async () => {
      const res = await get(resource, `shopcode=${shop}&FROM=2026-03-01&to=2026-04-01&limit=2`);
      expect(res.status).toBe(200);
    });

    it('should answer SQL-looking shop codes with 200 and an empty page', async () => {
      const res = await get(resource, `ShopCode=${encodeURIComponent("x' OR '1'='1")}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], nextCursor: null });
    });
  });

  it('should refuse a cursor whose signature was altered', async () => {
    const first = await get('sales', 'Limit=2');
    const cursor: string = first.body.nextCursor;
    const [body, mac] = cursor.split('.');
    const state = JSON.parse(Buffer.from(body, 'base64url').toString());
    state[6] = '2000-01-01 00:00:00.000';
    const forged = `${Buffer.from(JSON.stringify(state)).toString('base64url')}.${mac}`;
    expect((await get('sales', `Cursor=${forged}`)).status).toBe(400);
    expect((await get('sales', `Cursor=${body}.${mac.slice(0, -2)}AA`)).status).toBe(400);
  });

  it('should refuse a cursor of another resource', async () => {
    const first = await get('sales', 'Limit=2');
    const res = await get('payments', `Cursor=${first.body.nextCursor}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('Cursor');
  });

  it('should refuse a cursor issued to another user', async () => {
    const first = await get('sales', 'Limit=2');
    const other = forgeToken({ claims: { sub: 'someone-else', shop_code: [shop] } });
    expect((await get('sales', `Cursor=${first.body.nextCursor}`, other)).status).toBe(400);
  });

  it('should refuse filters given with a cursor that do not match it', async () => {
    const first = await get('sales', `ShopCode=${shop}&From=2026-03-01&Limit=2`);
    const cursor = first.body.nextCursor;
    for (const query of [`ShopCode=OTHER`, `From=2026-03-02`, `To=2026-03-04`]) {
      const res = await get('sales', `${query}&Cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/must match the query the cursor belongs to/);
    }
  });

  it('should refuse a cursor signed by another server (another secret)', async () => {
    const other = await startTestApp(ctx.db, {
      CURSOR_SECRET: 'another-secret-another-secret-123456',
    });
    try {
      const first = await http(other.baseUrl, '/api/v1.0/sales?Limit=2', {
        headers: bearer(token),
      });
      expect(first.body.nextCursor).toEqual(expect.any(String));
      expect((await get('sales', `Cursor=${first.body.nextCursor}`)).status).toBe(400);
    } finally {
      await other.close();
    }
  });
});
