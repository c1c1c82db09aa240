import { DataSource } from 'typeorm';
import { cashMoverOf } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';

jest.setTimeout(120_000);

/** Movements of another register after the day asked: more than two statements of a walk. */
const LATER = 4_500;
const DAY = 'From=2026-06-01&To=2026-06-02';

interface Session {
  registerCode: string;
  status: string;
  expected: string;
  movementCount: number;
}

/**
 * Issue 54, item 3: a drawer never counted (opened, used, never counted nor opened again) made
 * the read of its session walk the shop's rows to their end, and the day close's range of its
 * business date with it. The walk and the range now end at the register's last row: the same
 * answers, and the rows after the day are not read.
 */
describeEachDatabase('A drawer never counted: reads bounded by the day asked', (ctx) => {
  let api: TestApp;
  let shop: string;
  let token: string;

  beforeAll(async () => {
    const db = ctx.db.db;
    shop = await createShop(db, 'NCNT1');
    await db.query('INSERT INTO pos_registers (shop_code, code, name) VALUES (?, ?, ?)', [
      shop,
      'R2',
      'R2',
    ]);
    const move = cashMoverOf(db, shop);
    const day: Array<Parameters<typeof move>> = [
      // R1: opened on 1 June, two movements, never counted, never opened again.
      [5401, 'R1', '2026-06-01 08:00:00.000', 'OPENING_FLOAT', '100.00'],
      [5402, 'R1', '2026-06-01 09:00:00.000', 'SALE', '20.00'],
      [5403, 'R1', '2026-06-01 10:00:00.000', 'CASH_IN', '5.00'],
      // R2: a normal day, then months of movements outside any session.
      [5404, 'R2', '2026-06-01 07:00:00.000', 'OPENING_FLOAT', '50.00'],
      [5405, 'R2', '2026-06-01 20:00:00.000', 'CLOSING_COUNT', '-50.00'],
    ];
    for (const movement of day) await move(...movement);
    const rows = Array.from({ length: LATER }, (_, i) => {
      const at = new Date(Date.UTC(2026, 5, 2) + i * 30 * 60_000).toISOString();
      return [60_000 + i, shop, 'R2', `${at.slice(0, 10)} ${at.slice(11, 23)}`, 'CASH_IN', '1.00'];
    });
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      await db.query(
        'INSERT INTO pos_cash_movements (id, shop_code, register_code, moved_at, kind, amount, currency) VALUES ' +
          chunk.map(() => "(?, ?, ?, ?, ?, ?, 'EUR')").join(', '),
        chunk.flat(),
      );
    }
    token = forgeToken({ claims: { sub: 'never-counted', jti: 'nc1', shop_code: [shop] } });
    api = await startTestApp(ctx.db);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await api?.close();
  });

  /** The rows the statements on pos_cash_movements returned while `work` ran. */
  async function rowsRead(work: () => Promise<void>): Promise<number> {
    const db = api.app.get(DataSource);
    const original: DataSource['query'] = db.query.bind(db);
    let rows = 0;
    const spy = jest
      .spyOn(db, 'query')
      .mockImplementation(async (sql: string, ...rest: unknown[]) => {
        const result: unknown = await original(sql, ...(rest as [unknown[]]));
        if (/pos_cash_movements/.test(sql) && Array.isArray(result)) rows += result.length;
        return result;
      });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return rows;
  }

  it("should give the never-counted session its own movements and read far fewer rows than the shop's after the day", async () => {
    let sessions: Session[] = [];
    const read = await rowsRead(async () => {
      const res = await http<{ data: Session[] }>(
        api.baseUrl,
        `/api/v1.0/cash-drawer-sessions?ShopCode=${shop}&${DAY}`,
        { headers: bearer(token) },
      );
      expect(res.status).toBe(200);
      sessions = res.body.data;
    });
    expect(sessions.map((s) => [s.registerCode, s.status, s.expected, s.movementCount])).toEqual([
      ['R2', 'CLOSED', '50.00', 2],
      ['R1', 'OPEN', '125.00', 3],
    ]);
    // One statement of the walk (2,000 rows) and the sessions' ends; never the 4,500 after.
    expect(read).toBeLessThan(2_100);
  });

  it("should close the day with the never-counted drawer's figures without reading the months after it", async () => {
    let day: { cash: { sessions: number; open: number; expected: string } } | undefined;
    let movements = 0;
    const read = await rowsRead(async () => {
      const res = await http<{
        data: Array<{
          cash: { sessions: number; open: number; expected: string };
          digests: { cashMovements: { count: number } };
        }>;
      }>(api.baseUrl, `/api/v1.0/business-days?ShopCode=${shop}&${DAY}`, {
        headers: bearer(token),
      });
      expect(res.status).toBe(200);
      [day] = res.body.data;
      movements = res.body.data[0].digests.cashMovements.count;
    });
    expect(day?.cash).toMatchObject({ sessions: 2, open: 1, expected: '175.00' });
    expect(movements).toBe(5);
    expect(read).toBeLessThan(2_100);
  });
});
