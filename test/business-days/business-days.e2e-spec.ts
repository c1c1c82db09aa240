import { DAY_CLOSE } from '../../src/app.catalogue';
import { canonicalRecord, dayDigest } from '../../src/sync/digest/day-checksums';
import { projectRecord } from '../../src/catalogue/digest-versions';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { parseScaled } from '../../tools/seed/seed-format';
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
import { type DigestVersion, NEWEST_DIGEST_VERSION } from '../../src/catalogue/digest-versions';

type Rec = Record<string, any> & { id: string; businessDate: string };
interface Day {
  businessDate: string;
  sales: Record<string, any>;
  payments: Record<string, any>;
  cash: Record<string, any>;
  digests: Record<'sales' | 'payments' | 'cashMovements', { count: number; checksum: string }>;
}
interface Close {
  version: number;
  data: Day[];
}

const PROBLEM = /^application\/problem\+json/;
const cents = (value: string): number => parseScaled(value, 2);
const money = (value: number): string => {
  const text = String(Math.abs(value)).padStart(3, '0');
  return `${value < 0 && value !== 0 ? '-' : ''}${text.slice(0, -2)}.${text.slice(-2)}`;
};
const sum = (records: readonly Rec[], field: string): string =>
  money(records.reduce((total, r) => total + cents(r[field] as string), 0));
const nextDate = (date: string, days = 1): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const datesOf = (from: string, to: string): string[] => {
  const dates: string[] = [];
  for (let d = from; d < to; d = nextDate(d)) dates.push(d);
  return dates;
};

/** The digests' rule applied in the test to the list's records of one business date. */
function digestOf(
  resource: 'sales' | 'payments' | 'cashMovements',
  version: DigestVersion,
  date: string,
  records: readonly Rec[],
) {
  const fields = DAY_CLOSE[resource].digest!.fields[version];
  const sorted = [...records].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const { count, checksum } = dayDigest(
    date,
    sorted.map((r) => canonicalRecord(projectRecord(r, fields))),
  );
  return { count, checksum };
}

/** A day's close written again from the list endpoints' records of that business date. */
function expectedDay(
  date: string,
  lists: Record<'sales' | 'payments' | 'cashMovements' | 'sessions', Rec[]>,
  version: DigestVersion,
): Day {
  const of = (records: Rec[]) => records.filter((r) => r.businessDate === date);
  const [sales, payments, movements, sessions] = [
    of(lists.sales),
    of(lists.payments),
    of(lists.cashMovements),
    of(lists.sessions),
  ];
  const kept = sales.filter((s) => s.status !== 'VOIDED');
  const lines = kept.flatMap((s) => s.lines as Rec[]);
  const rates = [...new Set(lines.map((l) => l.taxRate as string))].sort(
    (a, b) => cents(a) - cents(b),
  );
  const methods = [...new Set(payments.map((p) => p.method as string))].sort();
  const closed = sessions.filter((s) => s.status === 'CLOSED');
  return {
    businessDate: date,
    sales: {
      completed: kept.filter((s) => s.kind === 'SALE' && s.status === 'COMPLETED').length,
      returns: kept.filter((s) => s.kind === 'RETURN' && s.status === 'COMPLETED').length,
      voided: sales.length - kept.length,
      gross: sum(kept, 'totalGross'),
      net: sum(kept, 'totalNet'),
      tax: sum(kept, 'totalTax'),
      discount: sum(kept, 'totalDiscount'),
      taxRates: rates.map((taxRate) => {
        const at = lines.filter((l) => l.taxRate === taxRate);
        return { taxRate, net: sum(at, 'net'), tax: sum(at, 'tax'), gross: sum(at, 'gross') };
      }),
    },
    payments: {
      count: payments.length,
      amount: sum(payments, 'amount'),
      methods: methods.map((method) => {
        const of = payments.filter((p) => p.method === method);
        return { method, count: of.length, amount: sum(of, 'amount') };
      }),
    },
    cash: {
      sessions: sessions.length,
      open: sessions.length - closed.length,
      openingFloat: sum(sessions, 'openingFloat'),
      expected: sum(sessions, 'expected'),
      counted: sum(closed, 'counted'),
      discrepancy: sum(closed, 'discrepancy'),
    },
    digests: {
      sales: digestOf('sales', version, date, sales),
      payments: digestOf('payments', version, date, payments),
      cashMovements: digestOf('cashMovements', version, date, movements),
    },
  };
}

describeEachDatabase('GET /business-days: the day close', (ctx) => {
  let api: TestApp;
  let token: string;
  let town: string;
  let bar: string;
  const FROM = '2026-10-20';
  const TO = '2026-10-30';

  beforeAll(async () => {
    const summary = await seedBusinessData(ctx.db.db, {
      seed: 7,
      shops: 1,
      days: 6,
      salesPerDay: 25,
      startDate: '2026-10-22',
    });
    // A bar: its nights cross midnight, and the fall-back night of 25 October (Europe/Madrid).
    const night = await seedBusinessData(ctx.db.db, {
      seed: 7,
      shops: [{ code: 'DAYBAR', timeZone: 'Europe/Madrid', hours: { open: 20, close: 28 } }],
      days: 6,
      salesPerDay: 25,
      startDate: '2026-10-22',
    });
    [town, bar] = [summary.shopCodes[0], night.shopCodes[0]];
    // DAYLONG: the shop of the test that seeds its own long sessions and late sales.
    token = forgeToken({ claims: { sub: 'closer', shop_code: [town, bar, 'DAYLONG'] } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = <T>(path: string, as = token) =>
    http<T>(api.baseUrl, `/api/v1.0/${path}`, { headers: bearer(as) });
  const close = async (shop: string, from = FROM, to = TO, extra = '') => {
    const res = await get<Close>(`business-days?ShopCode=${shop}&From=${from}&To=${to}${extra}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  /** Every record of a list for the shop, walked far wider than the period. */
  const list = async (route: string, shop: string): Promise<Rec[]> => {
    const pages = await walkPages<Rec>(async (cursor) => {
      const res = await get<{ data: Rec[]; nextCursor: string | null }>(
        cursor
          ? `${route}?Cursor=${encodeURIComponent(cursor)}`
          : `${route}?ShopCode=${shop}&From=2026-10-01&To=2026-11-15`,
      );
      expect(res.status).toBe(200);
      return res;
    });
    return pages.flatMap((p) => p.data);
  };
  const lists = async (shop: string) => ({
    sales: await list('sales', shop),
    payments: await list('payments', shop),
    cashMovements: await list('cash-movements', shop),
    sessions: await list('cash-drawer-sessions', shop),
  });

  it.each([
    ['a shop of the day', () => town],
    ["a bar whose nights cross midnight and the clock's change", () => bar],
  ])(
    "should give every business date, empty days included, with totals and digests equal to the lists' records of that day: %s",
    async (_name, shop) => {
      const body = await close(shop());
      const records = await lists(shop());
      expect(body.version).toBe(NEWEST_DIGEST_VERSION);
      expect(body.data.map((d) => d.businessDate)).toEqual(datesOf(FROM, TO));
      expect(body.data).toEqual(
        datesOf(FROM, TO).map((d) => expectedDay(d, records, NEWEST_DIGEST_VERSION)),
      );
      // The seeded days hold sales, sessions (one over or short) and movements; the others none.
      const busy = body.data.filter((d) => d.digests.sales.count > 0);
      expect(busy.map((d) => d.businessDate)).toEqual(datesOf('2026-10-22', '2026-10-28'));
      expect(busy.every((d) => d.cash.sessions > 0 && d.digests.cashMovements.count > 0)).toBe(
        true,
      );
      expect(body.data[0].digests.sales.checksum).toBe(
        'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      );
    },
  );

  it("should date a bar's night after midnight on the day it started", async () => {
    const records = await lists(bar);
    const night = records.sales.filter((s) => s.soldAt.slice(0, 10) !== s.businessDate);
    expect(night.length).toBeGreaterThan(0);
    const body = await close(bar);
    const day = body.data.find((d) => d.businessDate === night[0].businessDate)!;
    expect(day.digests.sales.count).toBe(
      records.sales.filter((s) => s.businessDate === night[0].businessDate).length,
    );
  });

  it('should follow the digest version asked for, as the digest endpoints do', async () => {
    const body = await close(town, FROM, TO, '&Version=1');
    const records = await lists(town);
    expect(body.version).toBe(1);
    expect(body.data.map((d) => d.digests)).toEqual(
      datesOf(FROM, TO).map((d) => expectedDay(d, records, 1).digests),
    );
    const newest = await close(town);
    const seeded = body.data.findIndex((d) => d.digests.sales.count > 0);
    expect(newest.data[seeded].digests.sales.checksum).not.toBe(
      body.data[seeded].digests.sales.checksum,
    );
  });

  it("should equal the sales digest by date for a shop whose business date is the sale's date", async () => {
    const body = await close(town);
    const digest = await get<{ data: Array<{ date: string; count: number; checksum: string }> }>(
      `sales/digest?ShopCode=${town}&From=${FROM}&To=${TO}`,
    );
    expect(digest.status).toBe(200);
    expect(body.data.map((d) => ({ date: d.businessDate, ...d.digests.sales }))).toEqual(
      digest.body.data,
    );
  });

  it.each([
    ['a shop of the day', () => town],
    ["a bar whose nights cross midnight and the clock's change", () => bar],
  ])(
    "should give the digest endpoints' checksums by business date, for each resource: %s",
    async (_name, shop) => {
      const body = await close(shop());
      for (const [route, key] of [
        ['sales', 'sales'],
        ['payments', 'payments'],
        ['cash-movements', 'cashMovements'],
      ] as const) {
        const digest = await get<{
          version: number;
          data: Array<{ date: string; count: number; checksum: string }>;
        }>(`${route}/digest?ShopCode=${shop()}&BusinessDateFrom=${FROM}&BusinessDateTo=${TO}`);
        expect(digest.status).toBe(200);
        expect(digest.body.version).toBe(body.version);
        expect(body.data.map((d) => ({ date: d.businessDate, ...d.digests[key] }))).toEqual(
          digest.body.data,
        );
      }
    },
  );

  it('should count a drawer session open across three days, a sale rung up three days after its business date and a session still open on their business dates, as the digest endpoints do', async () => {
    const db = ctx.db.db;
    const seeded = await seedBusinessData(db, {
      seed: 11,
      shops: [{ code: 'DAYLONG' }],
      days: 6,
      salesPerDay: 10,
      startDate: '2026-10-22',
    });
    const shop = seeded.shopCodes[0];
    for (const register of ['RLONG', 'ROPEN']) {
      await db.query('INSERT INTO pos_registers (shop_code, code, name) VALUES (?, ?, ?)', [
        shop,
        register,
        register,
      ]);
    }
    // Opened on the 23rd, counted on the evening of the 25th: every movement is the 23rd's.
    const session: Array<[string, string, string]> = [
      ['OPENING_FLOAT', '2026-10-23 20:00:00.000', '100.00'],
      ['CASH_IN', '2026-10-24 12:00:00.000', '20.00'],
      ['CASH_OUT', '2026-10-25 12:00:00.000', '-5.00'],
      ['CLOSING_COUNT', '2026-10-25 21:00:00.000', '-115.00'],
    ];
    // Opened on the 28th and never counted: its movements run past the period's end.
    const open: Array<[string, string, string]> = [
      ['OPENING_FLOAT', '2026-10-28 09:00:00.000', '50.00'],
      ['CASH_IN', '2026-10-31 10:00:00.000', '7.00'],
    ];
    let id = 9_100_000n;
    for (const [register, movements] of [
      ['RLONG', session],
      ['ROPEN', open],
    ] as const) {
      for (const [kind, movedAt, amount] of movements) {
        await insertCashMovement(db, {
          id: id++,
          shopCode: shop,
          registerCode: register,
          movedAt,
          kind,
          amount,
        });
      }
    }
    // Dated the 23rd, rung up on the 26th; and one dated before the period, rung up in it.
    const lines = [
      { quantity: '1', unitPrice: '10.00', net: '10.00', tax: '2.10', gross: '12.10' },
    ];
    await insertSale(db, {
      id: 9_100_100n,
      shopCode: shop,
      registerCode: 'RLONG',
      businessDate: '2026-10-23',
      soldAt: '2026-10-26 12:00:00.000',
      lines,
    });
    await insertSale(db, {
      id: 9_100_101n,
      shopCode: shop,
      registerCode: 'RLONG',
      businessDate: '2026-10-17',
      soldAt: '2026-10-20 12:00:00.000',
      lines,
    });
    await insertPayment(db, {
      id: 9_100_200n,
      saleId: 9_100_100n,
      shopCode: shop,
      paidAt: '2026-10-26 12:00:05.000',
      amount: '12.10',
    });
    await insertPayment(db, {
      id: 9_100_201n,
      saleId: 9_100_101n,
      shopCode: shop,
      paidAt: '2026-10-20 12:00:05.000',
      amount: '12.10',
    });

    const body = await close(shop);
    const records = await lists(shop);
    const late = records.cashMovements.filter(
      (m) => m.movedAt.slice(0, 10) > nextDate(m.businessDate),
    );
    expect(late.map((m) => m.businessDate)).toEqual(['2026-10-23', '2026-10-23', '2026-10-28']);
    expect(records.sales.find((s) => s.id === '9100100')?.businessDate).toBe('2026-10-23');
    expect(body.data).toEqual(
      datesOf(FROM, TO).map((d) => expectedDay(d, records, NEWEST_DIGEST_VERSION)),
    );
    for (const [route, key] of [
      ['sales', 'sales'],
      ['payments', 'payments'],
      ['cash-movements', 'cashMovements'],
    ] as const) {
      const digest = await get<{ data: Array<{ date: string; count: number; checksum: string }> }>(
        `${route}/digest?ShopCode=${shop}&BusinessDateFrom=${FROM}&BusinessDateTo=${TO}`,
      );
      expect(digest.status).toBe(200);
      expect(body.data.map((d) => ({ date: d.businessDate, ...d.digests[key] }))).toEqual(
        digest.body.data,
      );
    }
    const day = (date: string) => body.data.find((d) => d.businessDate === date)!;
    const of = (date: string, list: Rec[]) => list.filter((r) => r.businessDate === date).length;
    expect(day('2026-10-23').digests.sales.count).toBe(of('2026-10-23', records.sales));
    expect(day('2026-10-23').digests.cashMovements.count).toBe(
      of('2026-10-23', records.cashMovements),
    );
    expect(day('2026-10-28').cash.open).toBeGreaterThanOrEqual(1);
  });

  it("should count an open session's movements on the later days of the period on its business date, whatever the period", async () => {
    const db = ctx.db.db;
    const shop = await createShop(db, 'DAYOPEN');
    // Opened on the 24th, never counted, its last movement on the 27th: inside the period.
    const movements: Array<[string, string, string]> = [
      ['OPENING_FLOAT', '2026-10-24 09:00:00.000', '50.00'],
      ['CASH_IN', '2026-10-25 10:00:00.000', '7.00'],
      ['CASH_OUT', '2026-10-27 10:00:00.000', '-3.00'],
    ];
    let id = 9_200_000n;
    for (const [kind, movedAt, amount] of movements) {
      await insertCashMovement(db, {
        id: id++,
        shopCode: shop,
        registerCode: 'R1',
        movedAt,
        kind,
        amount,
      });
    }
    const as = forgeToken({ claims: { sub: 'opener', shop_code: [shop] } });
    const opened = async (from: string, to: string) => {
      const res = await get<Close>(`business-days?ShopCode=${shop}&From=${from}&To=${to}`, as);
      expect(res.status).toBe(200);
      return res.body.data.find((d) => d.businessDate === '2026-10-24')!;
    };
    const [wide, alone] = [await opened(FROM, TO), await opened('2026-10-24', '2026-10-25')];
    expect(wide.digests.cashMovements.count).toBe(3);
    expect(wide.cash).toMatchObject({ sessions: 1, open: 1, expected: '54.00' });
    expect(alone).toEqual(wide);
  });

  it('should change exactly the figures of its day after a void, a changed line or a deleted movement', async () => {
    const before = await close(town);
    const records = await lists(town);
    const db = ctx.db.db;
    const [d1, d2, d3] = ['2026-10-23', '2026-10-24', '2026-10-26'];
    const sale = records.sales.find((s) => s.businessDate === d1 && s.status === 'COMPLETED')!;
    const lined = records.sales.find((s) => s.businessDate === d2 && s.status === 'COMPLETED')!;
    const moved = records.cashMovements.find((m) => m.businessDate === d3 && m.kind === 'SALE')!;
    await db.query("UPDATE pos_sales SET status = 'VOIDED' WHERE id = ?", [sale.id]);
    await db.query(
      'UPDATE pos_sale_lines SET net = net + 1, gross = gross + 1 WHERE sale_id = ? AND line_no = 1',
      [lined.id],
    );
    await db.query('DELETE FROM pos_cash_movements WHERE id = ?', [moved.id]);
    const after = await close(town);
    const changed = after.data
      .filter((d, i) => JSON.stringify(d) !== JSON.stringify(before.data[i]))
      .map((d) => d.businessDate);
    expect(changed).toEqual([d1, d2, d3]);
    const at = (body: Close, date: string) => body.data.find((d) => d.businessDate === date)!;
    expect(at(after, d1).sales.voided).toBe(at(before, d1).sales.voided + 1);
    expect(cents(at(after, d1).sales.gross)).toBe(
      cents(at(before, d1).sales.gross) - cents(sale.totalGross),
    );
    expect(at(after, d2).digests.sales.checksum).not.toBe(at(before, d2).digests.sales.checksum);
    expect(at(after, d2).digests.sales.count).toBe(at(before, d2).digests.sales.count);
    expect(at(after, d3).digests.cashMovements.count).toBe(
      at(before, d3).digests.cashMovements.count - 1,
    );
    expect(cents(at(after, d3).cash.expected)).toBe(
      cents(at(before, d3).cash.expected) - cents(moved.amount),
    );
    const now = await lists(town);
    expect(after.data).toEqual(
      datesOf(FROM, TO).map((d) => expectedDay(d, now, NEWEST_DIGEST_VERSION)),
    );
  });

  it('should answer a shop outside the claims with no day, as an unknown one', async () => {
    for (const shop of ['SHOPX', town]) {
      const res = await get<Close>(
        `business-days?ShopCode=${shop}&From=${FROM}&To=${TO}`,
        forgeToken({ claims: { sub: 'other', shop_code: [bar] } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ version: NEWEST_DIGEST_VERSION, data: [] });
    }
  });

  it.each([
    ['ShopCode missing', `From=${FROM}&To=${TO}`, 'ShopCode'],
    ['a date-time', `ShopCode=S&From=2026-10-20T00:00:00&To=${TO}`, 'From'],
    ['an impossible date', `ShopCode=S&From=2026-02-30&To=${TO}`, 'From'],
    ['To before From', `ShopCode=S&From=${TO}&To=${FROM}`, 'To'],
    ['93 days', 'ShopCode=S&From=2026-01-01&To=2026-04-04', 'To'],
    ['an unknown parameter', `ShopCode=S&From=${FROM}&To=${TO}&BusinessDate=x`, 'BusinessDate'],
    ['an unknown version', `ShopCode=S&From=${FROM}&To=${TO}&Version=9`, 'Version'],
  ])('should refuse %s with a 400 problem naming it', async (_name, query, field) => {
    const res = await get<{ errors: Array<{ field: string }> }>(`business-days?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(PROBLEM);
    expect(res.body.errors.map((e) => e.field)).toContain(field);
  });

  it('should answer 92 days, and refuse a request without a token or without the ApiUser role', async () => {
    const long = await close(town, '2026-09-01', '2026-12-02');
    expect(long.data).toHaveLength(92);
    const anonymous = await http(
      api.baseUrl,
      `/api/v1.0/business-days?ShopCode=${town}&From=${FROM}&To=${TO}`,
    );
    expect(anonymous.status).toBe(401);
    const noRole = await get(
      `business-days?ShopCode=${town}&From=${FROM}&To=${TO}`,
      forgeToken({ claims: { sub: 'norole', role: [], shop_code: [town] } }),
    );
    expect(noRole.status).toBe(403);
  });
});
