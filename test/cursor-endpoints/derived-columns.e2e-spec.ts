import type { DataSource } from 'typeorm';
import { FEED_READ } from '../../src/wall/feed-read';
import { LIST_READ } from '../../src/wall/list-read';
import { Wall } from '../../src/wall/wall';
import type { Source } from '../../src/catalogue/source';
import { CASH_MOVEMENTS } from '../../src/cash-movements/cash-movements.source';
import type { Row } from '../../src/database/sql-reader';
import { PAYMENTS } from '../../src/payments/payments.source';
import { SALES } from '../../src/sales/sales.source';
import { insertCashMovement, insertPayment, insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';

jest.setTimeout(60_000);

/**
 * Each cash movement of register R1 of the first shop: its kind, moved_at, and the business date
 * the drawer-session rule gives it (docs/database.md, "Drawer sessions and business days").
 */
const MOVEMENTS: Array<[id: number, kind: string, movedAt: string, businessDate: string]> = [
  [101, 'CASH_IN', '2026-03-27 09:00:00.000', '2026-03-27'], // before the first opening
  [102, 'OPENING_FLOAT', '2026-03-28 18:00:00.000', '2026-03-28'],
  [103, 'SALE', '2026-03-29 01:00:00.000', '2026-03-28'], // the session runs past midnight
  [104, 'CLOSING_COUNT', '2026-03-29 03:00:00.000', '2026-03-28'], // the count is in it
  [105, 'CASH_OUT', '2026-03-29 04:00:00.000', '2026-03-29'], // after a count: outside
  [106, 'OPENING_FLOAT', '2026-03-29 22:00:00.000', '2026-03-29'], // never counted
  [107, 'OPENING_FLOAT', '2026-03-30 08:00:00.000', '2026-03-30'], // a new session
  [108, 'CASH_IN', '2026-03-30 09:00:00.000', '2026-03-30'],
  [109, 'CLOSING_COUNT', '2026-03-30 20:00:00.000', '2026-03-30'],
  [111, 'OPENING_FLOAT', '2026-04-01 22:00:00.000', '2026-04-01'],
  // Three movements at the same instant: (moved_at, id) order puts 110 before the count, 112 after.
  [110, 'SALE', '2026-04-02 01:00:00.000', '2026-04-01'],
  [113, 'CLOSING_COUNT', '2026-04-02 01:00:00.000', '2026-04-01'],
  [114, 'CASH_OUT', '2026-04-02 01:00:00.000', '2026-04-02'],
];

const byId = (rows: Array<{ id: string }>) => [...rows].sort((a, b) => Number(a.id) - Number(b.id));
const pick = (rows: Row[] | Array<Record<string, unknown>>, names: string[]) =>
  byId(rows as Array<{ id: string }>).map((row) =>
    Object.fromEntries(['id', ...names].map((n) => [n, (row as Record<string, unknown>)[n]])),
  );

/**
 * Derived columns (issue 42, item 1): a source's derived columns are selected with its own in
 * every read (the list's keyset read, one shop and the multi-shop UNION form; the feed's arrival
 * read; a digest's day and its fingerprints), on SQLite and MariaDB, and a change to what they
 * read moves the day's fingerprint.
 */
describeEachDatabase('Derived columns of the sources', (ctx) => {
  let db: DataSource;
  let madrid: string;
  let sydney: string;
  /** The wall's reader of a caller claiming both shops, on the test's own connection. */
  const wall = () => {
    const sql = {
      dialect: ctx.kind,
      query: (text: string, params: unknown[]) => db.query<Row[]>(text, params),
    };
    const reads = {
      reader: () => sql,
      withPrimary: <T>(work: (primary: typeof sql & { uncommitted: null }) => Promise<T>) =>
        work({ ...sql, uncommitted: null }),
    };
    const caller = {
      userId: '1',
      username: 'u',
      roles: ['ApiUser'],
      shopCodes: [madrid, sydney],
      tokenId: 't',
    };
    return { wall: new Wall(reads), caller };
  };
  const read = <T>(work: (w: ReturnType<typeof wall>) => T): T => work(wall());
  const ALL = { from: null, to: null, after: null, limit: 500 };
  const FEED = { since: null, afterId: null, limit: 500, wait: 0 };
  /** One shop, or null for every shop of the claims (the multi-shop UNION form). */
  const list = <R extends { id: string }>(source: Source<R>, shop: string | null) =>
    read((w) => w.wall.read(w.caller, LIST_READ, source, { ...ALL, shopCode: shop }));
  const feed = <R extends { id: string }>(source: Source<R>, shop: string | null) =>
    read((w) => w.wall.read(w.caller, FEED_READ, source, { ...FEED, shopCode: shop }));
  const day = <R extends { id: string }>(
    source: Source<R>,
    shop: string,
    date: string,
    next: string,
  ) =>
    read((w) => w.wall.dayReads(w.caller, source, shop)).day({
      from: `${date} 00:00:00.000`,
      to: `${next} 00:00:00.000`,
    });

  beforeAll(async () => {
    db = ctx.db.db;
    madrid = await createShop(db);
    sydney = await createShop(db);
    await db.query('UPDATE bo_shops SET time_zone = ? WHERE code = ?', [
      'Australia/Sydney',
      sydney,
    ]);
    await db.query('INSERT INTO pos_registers (shop_code, code, name) VALUES (?, ?, ?)', [
      madrid,
      'R2',
      'Register 2',
    ]);
    await insertSale(db, {
      id: 201n,
      shopCode: madrid,
      soldAt: '2026-03-29 01:00:00.000',
      businessDate: '2026-03-28',
    });
    await insertSale(db, { id: 202n, shopCode: sydney, soldAt: '2026-04-05 02:30:00.000' });
    await insertPayment(db, {
      id: 301n,
      saleId: 201n,
      shopCode: madrid,
      paidAt: '2026-03-29 01:01:00.000',
      amount: '1.00',
    });
    await insertPayment(db, {
      id: 302n,
      saleId: 202n,
      shopCode: sydney,
      paidAt: '2026-04-05 02:31:00.000',
      amount: '1.00',
    });
    for (const [id, kind, movedAt] of MOVEMENTS) {
      await insertCashMovement(db, {
        id: BigInt(id),
        shopCode: madrid,
        movedAt,
        kind,
        amount: '1.00',
      });
    }
    // Another register's opening, between R1's count and its next opening, changes nothing of R1.
    await db.query(
      `INSERT INTO pos_cash_movements (id, shop_code, register_code, moved_at, kind, amount, currency)
       VALUES (115, ?, 'R2', '2026-03-29 03:30:00.000', 'OPENING_FLOAT', 100, 'EUR')`,
      [madrid],
    );
    await insertCashMovement(db, {
      id: 116n,
      shopCode: sydney,
      movedAt: '2026-04-05 02:30:00.000',
      kind: 'OPENING_FLOAT',
      amount: '1.00',
    });
  });

  const EXPECTED_MOVEMENTS = [
    ...MOVEMENTS.map(([id, , , date]) => ({ id: String(id), business_date: date })),
    { id: '115', business_date: '2026-03-29' },
  ];

  it('should give each cash movement its drawer session business date, in every read', async () => {
    const listed = await list(CASH_MOVEMENTS, madrid);
    expect(pick(listed.rows, ['business_date'])).toEqual(byId(EXPECTED_MOVEMENTS));
    const fed = await feed(CASH_MOVEMENTS, madrid);
    expect(pick(fed.rows, ['business_date'])).toEqual(byId(EXPECTED_MOVEMENTS));
    const read = await day(CASH_MOVEMENTS, madrid, '2026-03-29', '2026-03-30');
    expect(pick(read.rows, ['business_date'])).toEqual(
      EXPECTED_MOVEMENTS.filter((m) => ['103', '104', '105', '106', '115'].includes(m.id)),
    );
  });

  it('should give the same dates page by page, two rows a page, in the list and the feed', async () => {
    const walk = async (read: (cursor: unknown) => Promise<{ rows: Row[]; next: unknown }>) => {
      const rows: Row[] = [];
      for (let cursor: unknown = null, pages = 0; pages < 50; pages++) {
        const page = await read(cursor);
        rows.push(...page.rows);
        if (page.next === null || page.rows.length === 0) break;
        cursor = page.next;
      }
      return rows;
    };
    const listed = await walk(async (after) => {
      const page = await read((w) =>
        w.wall.read(w.caller, LIST_READ, CASH_MOVEMENTS, {
          ...ALL,
          limit: 2,
          shopCode: madrid,
          after: after as { time: string; id: string } | null,
        }),
      );
      return { rows: page.rows as unknown as Row[], next: page.next };
    });
    const fed = await walk(async (after) => {
      const page = await read((w) =>
        w.wall.read(w.caller, FEED_READ, CASH_MOVEMENTS, {
          ...FEED,
          limit: 2,
          shopCode: madrid,
          afterId: after as string | null,
        }),
      );
      return { rows: page.rows as unknown as Row[], next: page.caughtUp ? null : page.position };
    });
    expect(pick(listed, ['business_date'])).toEqual(byId(EXPECTED_MOVEMENTS));
    expect(pick(fed, ['business_date'])).toEqual(byId(EXPECTED_MOVEMENTS));
  });

  it.each([
    ['sales', SALES],
    ['payments', PAYMENTS],
    ['cash movements', CASH_MOVEMENTS],
  ] as Array<[string, Source<{ id: string; shop_code: string; time_zone: string | null }>]>)(
    "should give %s their shop's zone, one shop and several (the UNION form)",
    async (_name, source) => {
      const zones = { [madrid]: 'Europe/Madrid', [sydney]: 'Australia/Sydney' };
      for (const shop of [madrid, sydney, null]) {
        for (const { rows } of [await list(source, shop), await feed(source, shop)]) {
          expect(rows.length).toBeGreaterThan(0);
          expect(rows.map((row) => [row.shop_code, row.time_zone])).toEqual(
            rows.map((row) => [row.shop_code, zones[row.shop_code]]),
          );
        }
      }
    },
  );

  it("should give a payment its sale's business date, in the list, several shops' and the feed", async () => {
    const expected = [
      { id: '301', business_date: '2026-03-28' },
      { id: '302', business_date: '2026-04-05' },
    ];
    expect(pick((await list(PAYMENTS, null)).rows, ['business_date'])).toEqual(expected);
    expect(pick((await feed(PAYMENTS, null)).rows, ['business_date'])).toEqual(expected);
  });

  const fingerprint = async (source: Source<{ id: string }>, shop: string, date: string) =>
    (
      await read((w) => w.wall.dayReads(w.caller, source, shop)).fingerprints({
        from: `${date} 00:00:00.000`,
        to: '2027-01-01 00:00:00.000',
      })
    ).get(date);

  it('should move the day fingerprint when what a derived column reads changes, and the read agrees', async () => {
    // Every change is undone whatever the outcome: the file's other tests read these rows.
    try {
      const payments = await fingerprint(PAYMENTS, madrid, '2026-03-29');
      const sales = await fingerprint(SALES, madrid, '2026-03-29');
      const movements = await fingerprint(CASH_MOVEMENTS, madrid, '2026-03-29');
      // The sale's business date: the payment's day moves (the sale's own column: its day too).
      await db.query('UPDATE pos_sales SET business_date = ? WHERE id = 201', ['2026-03-29']);
      const paymentsAfter = await fingerprint(PAYMENTS, madrid, '2026-03-29');
      expect(paymentsAfter).not.toEqual(payments);
      // The shop's zone: every resource's day moves.
      await db.query('UPDATE bo_shops SET time_zone = ? WHERE code = ?', [
        'Atlantic/Canary',
        madrid,
      ]);
      expect(await fingerprint(SALES, madrid, '2026-03-29')).not.toEqual(sales);
      expect(await fingerprint(PAYMENTS, madrid, '2026-03-29')).not.toEqual(paymentsAfter);
      const zoned = await fingerprint(CASH_MOVEMENTS, madrid, '2026-03-29');
      expect(zoned).not.toEqual(movements);
      // The opening of another day's session: the movements after it, on this day, move.
      await db.query(
        "UPDATE pos_cash_movements SET moved_at = '2026-03-27 18:00:00.000' WHERE id = 102",
      );
      const moved = await fingerprint(CASH_MOVEMENTS, madrid, '2026-03-29');
      expect(moved).not.toEqual(zoned);
      // The day's read computes the fingerprint of the same rows, derived columns included.
      const read = await day(CASH_MOVEMENTS, madrid, '2026-03-29', '2026-03-30');
      expect(read.fingerprint).toBe(moved);
      expect(pick(read.rows, ['time_zone'])[0]).toEqual({
        id: '103',
        time_zone: 'Atlantic/Canary',
      });
    } finally {
      await db.query('UPDATE pos_sales SET business_date = ? WHERE id = 201', ['2026-03-28']);
      await db.query('UPDATE bo_shops SET time_zone = ? WHERE code = ?', ['Europe/Madrid', madrid]);
      await db.query(
        "UPDATE pos_cash_movements SET moved_at = '2026-03-28 18:00:00.000' WHERE id = 102",
      );
    }
  });
});
