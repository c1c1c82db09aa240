import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { parseScaled } from '../../tools/seed/seed-format';
import { cashMoverOf, insertCashMovement, walkPages } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';

interface Session {
  id: string;
  shopCode: string;
  registerCode: string;
  businessDate: string;
  openedAt: string;
  openedAtUtc?: string | null;
  closedAt: string | null;
  closedAtUtc?: string | null;
  status: string;
  currency: string;
  openingFloat: string;
  cashSales: string;
  cashRefunds: string;
  cashIn: string;
  cashOut: string;
  expected: string;
  counted: string | null;
  discrepancy: string | null;
  movementCount: number;
}

interface Movement {
  id: string;
  shop_code: string;
  register_code: string;
  moved_at: string;
  kind: string;
  amount: string | number;
  currency: string;
}

const PROBLEM = /^application\/problem\+json/;
const cents = (value: string | number): number => parseScaled(String(value), 2);
const money = (value: number): string => {
  const text = String(Math.abs(value)).padStart(3, '0');
  return `${value < 0 ? '-' : ''}${text.slice(0, -2)}.${text.slice(-2)}`;
};
const local = (stored: string): string => stored.replace(' ', 'T');

/**
 * The rule of docs/database.md, "Drawer sessions and business days", written again from the
 * movements alone: each register's movements in (moved_at, id) order; an OPENING_FLOAT opens a
 * session holding every later movement up to and including the next CLOSING_COUNT; another
 * OPENING_FLOAT first leaves it open.
 */
function sessionsOf(movements: readonly Movement[]): Session[] {
  const byRegister = new Map<string, Movement[]>();
  for (const m of movements) {
    const key = `${m.shop_code}/${m.register_code}`;
    byRegister.set(key, [...(byRegister.get(key) ?? []), m]);
  }
  const sessions: Array<Session & { sort: [string, bigint] }> = [];
  for (const moves of byRegister.values()) {
    moves.sort((a, b) =>
      a.moved_at === b.moved_at
        ? Number(BigInt(a.id) - BigInt(b.id))
        : a.moved_at < b.moved_at
          ? -1
          : 1,
    );
    let open: (Session & { sort: [string, bigint] }) | null = null;
    const sums = { SALE: 0, REFUND: 0, CASH_IN: 0, CASH_OUT: 0 } as Record<string, number>;
    let expected = 0;
    for (const m of moves) {
      if (m.kind === 'OPENING_FLOAT') {
        if (open) sessions.push(open);
        for (const k of Object.keys(sums)) sums[k] = 0;
        expected = cents(m.amount);
        open = {
          sort: [m.moved_at, BigInt(m.id)],
          id: String(m.id),
          shopCode: m.shop_code,
          registerCode: m.register_code,
          businessDate: m.moved_at.slice(0, 10),
          openedAt: local(m.moved_at),
          closedAt: null,
          status: 'OPEN',
          currency: m.currency,
          openingFloat: money(cents(m.amount)),
          cashSales: '0.00',
          cashRefunds: '0.00',
          cashIn: '0.00',
          cashOut: '0.00',
          expected: money(expected),
          counted: null,
          discrepancy: null,
          movementCount: 1,
        };
        continue;
      }
      if (!open) continue;
      open.movementCount++;
      if (m.kind === 'CLOSING_COUNT') {
        const counted = -cents(m.amount);
        Object.assign(open, {
          closedAt: local(m.moved_at),
          status: 'CLOSED',
          counted: money(counted),
          discrepancy: money(counted - expected),
        });
        sessions.push(open);
        open = null;
        continue;
      }
      expected += cents(m.amount);
      if (m.kind in sums) sums[m.kind] += cents(m.amount);
      Object.assign(open, {
        cashSales: money(sums.SALE),
        cashRefunds: money(sums.REFUND),
        cashIn: money(sums.CASH_IN),
        cashOut: money(sums.CASH_OUT),
        expected: money(expected),
      });
    }
    if (open) sessions.push(open);
  }
  sessions.sort((a, b) =>
    a.sort[0] === b.sort[0] ? Number(a.sort[1] - b.sort[1]) : a.sort[0] < b.sort[0] ? -1 : 1,
  );
  return sessions.map(({ sort: _sort, ...session }) => session);
}

describeEachDatabase('GET /cash-drawer-sessions: the drawer-session rule', (ctx) => {
  let api: TestApp;
  let shop: string;
  let foreign: string;
  let token: string;

  const get = (query: string, as = token) =>
    http<{ data: Session[]; nextCursor: string | null }>(
      api.baseUrl,
      `/api/v1.0/cash-drawer-sessions?${query}`,
      { headers: bearer(as) },
    );

  beforeAll(async () => {
    const db = ctx.db.db;
    shop = await createShop(db, 'SESS1');
    foreign = await createShop(db, 'SESS2');
    for (const code of ['R2', 'R3']) {
      for (const s of [shop, foreign]) {
        await db.query('INSERT INTO pos_registers (shop_code, code, name) VALUES (?, ?, ?)', [
          s,
          code,
          code,
        ]);
      }
    }
    const move = cashMoverOf(db, shop);
    // R1, 1 May: every kind, one of a kind the API does not know, a movement that arrived first
    // (lower id) but moved later, the count, and after it a movement at the count's very time
    // (a higher id: after the count) and one later (outside any session).
    await move(999, 'R1', '2026-05-01 20:59:00.000', 'CASH_OUT', '-2.00');
    await move(1001, 'R1', '2026-05-01 08:00:00.000', 'OPENING_FLOAT', '100.00');
    await move(1002, 'R1', '2026-05-01 09:00:00.000', 'SALE', '20.00');
    await move(1003, 'R1', '2026-05-01 10:00:00.000', 'REFUND', '-5.00');
    await move(1004, 'R1', '2026-05-01 11:00:00.000', 'CASH_IN', '10.00');
    await move(1005, 'R1', '2026-05-01 12:00:00.000', 'CASH_OUT', '-50.00');
    await move(1006, 'R1', '2026-05-01 13:00:00.000', 'ROUNDING', '0.01');
    await move(1007, 'R1', '2026-05-01 21:00:00.000', 'CLOSING_COUNT', '-73.01');
    await move(1008, 'R1', '2026-05-01 21:00:00.000', 'CASH_IN', '1.00');
    await move(1009, 'R1', '2026-05-01 22:00:00.000', 'SALE', '3.00');
    // R2 of the foreign shop, interleaved, on the same register code: never counted here.
    await move(1500, 'R1', '2026-05-01 09:30:00.000', 'OPENING_FLOAT', '300.00', foreign);
    await move(1501, 'R1', '2026-05-01 10:30:00.000', 'SALE', '7.00', foreign);
    // R1, 2 May: a second float before any count; the first session stays open.
    await move(2001, 'R1', '2026-05-02 08:00:00.000', 'OPENING_FLOAT', '100.00');
    await move(2002, 'R1', '2026-05-02 09:00:00.000', 'SALE', '30.00');
    await move(2003, 'R1', '2026-05-02 12:00:00.000', 'OPENING_FLOAT', '50.00');
    await move(2004, 'R1', '2026-05-02 13:00:00.000', 'SALE', '10.00');
    await move(2005, 'R1', '2026-05-02 20:00:00.000', 'CLOSING_COUNT', '-60.00');
    // R2: a bar's night, counted after midnight: the business date is the opening's.
    await move(3001, 'R2', '2026-05-01 20:00:00.000', 'OPENING_FLOAT', '100.00');
    await move(3002, 'R2', '2026-05-02 01:30:00.000', 'SALE', '40.00');
    await move(3003, 'R2', '2026-05-02 03:10:00.000', 'CLOSING_COUNT', '-140.00');
    // R3: still open, the latest session.
    await move(4001, 'R3', '2026-05-03 09:00:00.000', 'OPENING_FLOAT', '100.00');
    await move(4002, 'R3', '2026-05-03 09:30:00.000', 'SALE', '5.00');
    token = forgeToken({ claims: { sub: 'sessions', shop_code: [shop] } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const base = { shopCode: 'SESS1', currency: 'EUR' };
  const closedR1: Session = {
    ...base,
    id: '1001',
    registerCode: 'R1',
    businessDate: '2026-05-01',
    openedAt: '2026-05-01T08:00:00.000',
    openedAtUtc: '2026-05-01T06:00:00.000Z',
    closedAt: '2026-05-01T21:00:00.000',
    closedAtUtc: '2026-05-01T19:00:00.000Z',
    status: 'CLOSED',
    openingFloat: '100.00',
    cashSales: '20.00',
    cashRefunds: '-5.00',
    cashIn: '10.00',
    cashOut: '-52.00',
    // 100 + 20 − 5 + 10 − 50 + 0.01 (ROUNDING) − 2 (id 999, moved at 20:59)
    expected: '73.01',
    counted: '73.01',
    discrepancy: '0.00',
    movementCount: 8,
  };
  const bar: Session = {
    ...base,
    id: '3001',
    registerCode: 'R2',
    businessDate: '2026-05-01',
    openedAt: '2026-05-01T20:00:00.000',
    openedAtUtc: '2026-05-01T18:00:00.000Z',
    closedAt: '2026-05-02T03:10:00.000',
    closedAtUtc: '2026-05-02T01:10:00.000Z',
    status: 'CLOSED',
    openingFloat: '100.00',
    cashSales: '40.00',
    cashRefunds: '0.00',
    cashIn: '0.00',
    cashOut: '0.00',
    expected: '140.00',
    counted: '140.00',
    discrepancy: '0.00',
    movementCount: 3,
  };
  const leftOpen: Session = {
    ...base,
    id: '2001',
    registerCode: 'R1',
    businessDate: '2026-05-02',
    openedAt: '2026-05-02T08:00:00.000',
    openedAtUtc: '2026-05-02T06:00:00.000Z',
    closedAt: null,
    closedAtUtc: null,
    status: 'OPEN',
    openingFloat: '100.00',
    cashSales: '30.00',
    cashRefunds: '0.00',
    cashIn: '0.00',
    cashOut: '0.00',
    expected: '130.00',
    counted: null,
    discrepancy: null,
    movementCount: 2,
  };
  const short: Session = {
    ...base,
    id: '2003',
    registerCode: 'R1',
    businessDate: '2026-05-02',
    openedAt: '2026-05-02T12:00:00.000',
    openedAtUtc: '2026-05-02T10:00:00.000Z',
    closedAt: '2026-05-02T20:00:00.000',
    closedAtUtc: '2026-05-02T18:00:00.000Z',
    status: 'CLOSED',
    openingFloat: '50.00',
    cashSales: '10.00',
    cashRefunds: '0.00',
    cashIn: '0.00',
    cashOut: '0.00',
    expected: '60.00',
    counted: '60.00',
    discrepancy: '0.00',
    movementCount: 3,
  };
  const latest: Session = {
    ...base,
    id: '4001',
    registerCode: 'R3',
    businessDate: '2026-05-03',
    openedAt: '2026-05-03T09:00:00.000',
    openedAtUtc: '2026-05-03T07:00:00.000Z',
    closedAt: null,
    closedAtUtc: null,
    status: 'OPEN',
    openingFloat: '100.00',
    cashSales: '5.00',
    cashRefunds: '0.00',
    cashIn: '0.00',
    cashOut: '0.00',
    expected: '105.00',
    counted: null,
    discrepancy: null,
    movementCount: 2,
  };

  it('should sum each session from its float to its count, leave open sessions uncounted, and date a night by its opening', async () => {
    const res = await get(`ShopCode=${shop}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [closedR1, bar, leftOpen, short, latest], nextCursor: null });
  });

  it.each([1, 2, 3])(
    'should give the same sessions %i at a time, each whole (a session ends where the next page starts)',
    async (limit) => {
      const pages = await walkPages<Session>((cursor) =>
        get(cursor ? `Cursor=${encodeURIComponent(cursor)}&Limit=${limit}` : `Limit=${limit}`),
      );
      expect(pages.map((p) => p.data.length)).toEqual(
        [5, 5, 5, 5, 5]
          .slice(0, Math.ceil(5 / limit))
          .map((_, i) => Math.min(limit, 5 - i * limit)),
      );
      expect(pages.flatMap((p) => p.data)).toEqual([closedR1, bar, leftOpen, short, latest]);
    },
  );

  it('should write a shortage as a negative discrepancy, and show a count as it moves', async () => {
    await ctx.db.db.query('UPDATE pos_cash_movements SET amount = ? WHERE id = ?', [
      '-58.55',
      2005,
    ]);
    const res = await get(`ShopCode=${shop}&From=2026-05-02T12:00:00&To=2026-05-02T12:00:01`);
    expect(res.body.data).toEqual([{ ...short, counted: '58.55', discrepancy: '-1.45' }]);
    await ctx.db.db.query('UPDATE pos_cash_movements SET amount = ? WHERE id = ?', [
      '-60.00',
      2005,
    ]);
  });

  it('should select sessions by their opening time, shop-local, From inclusive and To exclusive', async () => {
    const ids = async (query: string) => (await get(query)).body.data.map((s) => s.id);
    // The bar's session, opened on 1 May and counted on the 2nd, belongs to the 1st.
    expect(await ids('From=2026-05-02')).toEqual(['2001', '2003', '4001']);
    expect(await ids('From=2026-05-01T20:00:00&To=2026-05-02T08:00:00')).toEqual(['3001']);
    expect(await ids('To=2026-05-01T20:00:00')).toEqual(['1001']);
  });

  it("should never show a foreign shop's session, and answer a shop outside the claims as the lists do", async () => {
    const all = await get('');
    expect(all.body.data.map((s) => s.shopCode)).toEqual(Array(5).fill(shop));
    const outside = await get(`ShopCode=${foreign}`);
    expect(outside.status).toBe(200);
    expect(outside.body).toEqual({ data: [], nextCursor: null });
    const theirs = forgeToken({ claims: { sub: 'foreign', shop_code: [foreign] } });
    const own = await get('', theirs);
    expect(own.body.data.map((s) => [s.id, s.expected, s.status])).toEqual([
      ['1500', '307.00', 'OPEN'],
    ]);
  });

  it('should refuse bad input with a 400 problem naming the parameter, and no token with 401', async () => {
    for (const [query, field] of [
      ['Limit=501', 'Limit'],
      ['Limit=0', 'Limit'],
      ['From=2026-02-30', 'From'],
      ['From=2026-05-01T00:00:00Z', 'From'],
      ['From=2026-05-02&To=2026-05-01', 'From'],
      ['Status=OPEN', 'Status'],
      ['Cursor=nope', 'Cursor'],
    ]) {
      const res = await http(api.baseUrl, `/api/v1.0/cash-drawer-sessions?${query}`, {
        headers: bearer(token),
      });
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.headers.get('content-type')).toMatch(PROBLEM);
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    const movements = await http(api.baseUrl, '/api/v1.0/cash-movements?Limit=1', {
      headers: bearer(token),
    });
    const reused = await get(`Cursor=${encodeURIComponent(movements.body.nextCursor)}`);
    expect(reused.status).toBe(400);
    expect((await http(api.baseUrl, '/api/v1.0/cash-drawer-sessions')).status).toBe(401);
    expect((await http(api.baseUrl, '/api/v1.0/cash-drawer-sessions/feed')).status).toBe(404);
  });
});

describeEachDatabase('GET /cash-drawer-sessions: generated days, paged under inserts', (ctx) => {
  let api: TestApp;
  let shops: string[];
  let token: string;

  beforeAll(async () => {
    const summary = await seedBusinessData(ctx.db.db, {
      seed: 42,
      shops: 3,
      days: 6,
      salesPerDay: 20,
      startDate: '2026-10-22',
    });
    // A bar: its nights cross midnight, and the fall-back night of 25 October.
    const bar = await seedBusinessData(ctx.db.db, {
      seed: 42,
      shops: [{ code: 'BAR9', timeZone: 'Europe/Madrid', hours: { open: 20, close: 28 } }],
      days: 6,
      salesPerDay: 20,
      startDate: '2026-10-22',
    });
    shops = [summary.shopCodes[0], summary.shopCodes[1], bar.shopCodes[0]];
    token = forgeToken({ claims: { sub: 'walker', shop_code: shops } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    await api?.close();
  });

  const movements = () =>
    ctx.db.db.query<Movement[]>(
      `SELECT CAST(id AS CHAR) AS id, shop_code, register_code, moved_at, kind, amount, currency
         FROM pos_cash_movements WHERE shop_code IN (?, ?, ?)`,
      shops,
    );

  it('should give every session once, in (openedAt, id) order, with the sums the rule gives, under inserts', async () => {
    const before = sessionsOf(await movements());
    expect(before.length).toBeGreaterThan(30);
    // Counts over and short, and nights counted after midnight, are among them.
    expect(before.some((s) => s.discrepancy !== null && s.discrepancy !== '0.00')).toBe(true);
    expect(
      before.some((s) => s.closedAt !== null && s.businessDate !== s.closedAt.slice(0, 10)),
    ).toBe(true);
    const seen: Session[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const query: string = cursor
        ? `Cursor=${encodeURIComponent(cursor)}&Limit=7`
        : 'From=2026-10-01&To=2026-11-01&Limit=7';
      const res = await http<{ data: Session[]; nextCursor: string | null }>(
        api.baseUrl,
        `/api/v1.0/cash-drawer-sessions?${query}`,
        { headers: bearer(token) },
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.data);
      cursor = res.body.nextCursor;
      if (page++ === 2) {
        // Behind the cursor (never shown) and ahead of it (shown once, in its place).
        await insertCashMovement(ctx.db.db, {
          id: 900_001n,
          shopCode: shops[0],
          movedAt: '2026-10-22 00:00:00.001',
          kind: 'OPENING_FLOAT',
          amount: '1.00',
        });
        await insertCashMovement(ctx.db.db, {
          id: 900_002n,
          shopCode: shops[2],
          movedAt: '2026-10-29 23:59:00.000',
          kind: 'OPENING_FLOAT',
          amount: '2.00',
        });
      }
    } while (cursor);
    const after = sessionsOf(await movements()).filter((s) => s.id !== '900001');
    expect(seen.map((s) => s.id)).toEqual(after.map((s) => s.id));
    expect(seen.map((s) => s.id)).toContain('900002');
    // The records of the sessions the inserts did not touch are the rule's, field for field.
    const touched = new Set(['900001', '900002']);
    const byId = new Map(after.map((s) => [s.id, s]));
    // (The rule's re-implementation has no zone: the instants are checked on the night below.)
    for (const s of seen) {
      if (touched.has(s.id)) continue;
      const { openedAtUtc, closedAtUtc } = s;
      expect(s).toEqual({ ...byId.get(s.id), openedAtUtc, closedAtUtc });
    }
    // The bar's night of the fall-back change: opened in summer time, counted in winter time.
    const night = seen.filter((s) => s.shopCode === 'BAR9' && s.businessDate === '2026-10-24');
    expect(night.length).toBeGreaterThan(0);
    for (const s of night) {
      const utc = (local: string, hours: number) =>
        new Date(Date.parse(`${local}Z`) - hours * 3_600_000).toISOString();
      expect([s.openedAtUtc, s.closedAtUtc]).toEqual([utc(s.openedAt, 2), utc(s.closedAt!, 1)]);
      expect(s.closedAt! > '2026-10-25T03:00:00.000').toBe(true);
    }
  });
});
