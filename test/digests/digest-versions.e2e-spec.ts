import {
  insertCashMovement,
  insertPayment,
  insertSale,
  walkPages,
} from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';
import { checksumOf, type Rec } from './support/checksum-rule';
import { DIGEST_VERSIONS, NEWEST_DIGEST_VERSION } from '../../src/catalogue/digest-versions';

jest.setTimeout(120_000);

interface Day {
  date: string;
  count: number;
  checksum: string;
}

const SHOP = 'DVER';
const DATE = '2026-03-29';
const PERIOD = 'From=2026-03-29&To=2026-03-30';

/** The fields issue 42 added, which version 1 leaves out (docs/sync.md, "Digest versions"). */
const ADDED: Record<string, string[]> = {
  sales: ['soldAtUtc'],
  payments: ['paidAtUtc', 'businessDate'],
  'cash-movements': ['movedAtUtc', 'businessDate'],
};

/**
 * The version 1 checksums of this fixed dataset, as the service answered before issue 42 (the
 * records then had none of the added fields): pinned, so version 1 stays frozen.
 */
const V1_PINNED: Record<string, string> = {
  sales: 'b257d81954a3a943a0ca25e0c9141b2e4cf6943229a24c44a31eab85c9bcc8ce',
  payments: '9fc9d91d84ad1f300f220243e82b774fc3857b0ec297ad1929ebc0a754a6dddf',
  'cash-movements': 'b41081e9675bee4365c165b46586e26f625149a50b3046f5d92b48d571fa3c0d',
};

const without = (record: Rec, fields: string[]): Rec =>
  Object.fromEntries(Object.entries(record).filter(([key]) => !fields.includes(key))) as Rec;

/**
 * Issue 42, item 5: digest versions. Version 1 is today's records' field set, frozen; version 2
 * adds the business dates and instants; the answer names its version, `Version` selects one,
 * absent is the newest, anything else a 400 naming the allowed values.
 */
describeEachDatabase('Digests: versions', (ctx) => {
  let api: TestApp;
  let token: string;

  beforeAll(async () => {
    await createShop(ctx.db.db, SHOP);
    const at = `${DATE} 02:30:00.000`;
    const lines = [
      { quantity: '1.000', unitPrice: '5.00', net: '5.00', tax: '1.05', gross: '6.05' },
    ];
    await insertSale(ctx.db.db, {
      id: 4201n,
      shopCode: SHOP,
      soldAt: at,
      lines,
      businessDate: '2026-03-28',
    });
    await insertPayment(ctx.db.db, {
      id: 4201n,
      saleId: 4201n,
      shopCode: SHOP,
      paidAt: at,
      amount: '6.05',
    });
    await insertCashMovement(ctx.db.db, {
      id: 4201n,
      shopCode: SHOP,
      movedAt: at,
      amount: '6.05',
      kind: 'SALE',
      saleId: 4201n,
    });
    token = forgeToken({ claims: { sub: 'versioned-digester', shop_code: [SHOP] } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const digest = (route: string, extra = '', shop = SHOP) =>
    http<{ version: number; data: Day[] }>(
      api.baseUrl,
      `/api/v1.0/${route}/digest?ShopCode=${shop}&${PERIOD}${extra}`,
      { headers: bearer(token) },
    );
  const listed = async (route: string): Promise<Rec[]> => {
    const pages = await walkPages<Rec>((cursor) =>
      http(
        api.baseUrl,
        `/api/v1.0/${route}?ShopCode=${SHOP}&From=${DATE}T00:00:00&To=2026-03-30T00:00:00` +
          (cursor ? `&Cursor=${encodeURIComponent(cursor)}` : ''),
        { headers: bearer(token) },
      ),
    );
    return pages.flatMap((page) => page.data);
  };

  it.each(Object.keys(ADDED))(
    'should answer %s in version 1 as before issue 42, and in the newest over every field',
    async (route) => {
      const records = await listed(route);
      expect(records).toHaveLength(1);
      for (const field of ADDED[route]) expect(records[0]).toHaveProperty(field);
      const v1 = await digest(route, '&Version=1');
      expect(v1.status).toBe(200);
      expect(v1.body.version).toBe(1);
      const old = records.map((record) => without(record, ADDED[route]));
      expect(v1.body.data).toEqual([{ date: DATE, count: 1, checksum: checksumOf(old) }]);
      expect(v1.body.data[0].checksum).toBe(V1_PINNED[route]);

      const newest = await digest(route);
      const named = await digest(route, `&Version=${NEWEST_DIGEST_VERSION}`);
      expect(newest.body).toEqual(named.body);
      expect(named.body.version).toBe(NEWEST_DIGEST_VERSION);
      expect(named.body.data).toEqual([{ date: DATE, count: 1, checksum: checksumOf(records) }]);
      expect(named.body.data[0].checksum).not.toBe(v1.body.data[0].checksum);
      // Asked again (each version's checksums are cached apart), the same answers.
      expect((await digest(route, '&Version=1')).body).toEqual(v1.body);
      expect((await digest(route, `&Version=${NEWEST_DIGEST_VERSION}`)).body).toEqual(named.body);
    },
  );

  it.each([String(NEWEST_DIGEST_VERSION + 1), '0', 'abc', '1.0', '', `${NEWEST_DIGEST_VERSION} `])(
    'should refuse Version=%j with a 400 problem naming the allowed values',
    async (value) => {
      const res = await digest('sales', `&Version=${encodeURIComponent(value)}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        errors: [{ field: 'Version', message: `must be one of ${DIGEST_VERSIONS.join(', ')}` }],
      });
    },
  );

  it('should name the version of an empty answer for a shop outside the claims', async () => {
    const res = await digest('payments', '&Version=1', 'NOTMINE');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, data: [] });
  });
});
