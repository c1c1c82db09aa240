import { mkdtempSync, existsSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SQLITE_FILE_NAME } from '../../src/database/data-source.options';
import { DEMO_BAR, DEMO_LATE_DAYS, DEMO_USERS } from '../../tools/seed/demo-data';
import { fillDemoDatabase } from '../../tools/seed/demo-database';
import { bearer, getToken, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const user = (name: string) => DEMO_USERS.find((u) => u.username === name)!;

describe('Embedded default: no DATABASE_URL gives a working demo', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pos-api-demo-'));
  const demoDatabase = { DATA_DIR: dataDir, usesEmbeddedDatabase: true };
  let api: TestApp;
  let firstFill: string | undefined;
  let umask: number;

  beforeAll(async () => {
    umask = process.umask(0o022); // the usual umask: SQLite alone would create the file 0644
    // As `npm start` (tools/seed/start-development.ts): the demo filled first, then the service.
    firstFill = await fillDemoDatabase(demoDatabase);
    api = await startTestApp({ dataDir });
  }, 60_000);
  afterAll(async () => {
    process.umask(umask);
    await api?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('should create the SQLite file in DATA_DIR on first start', () => {
    expect(existsSync(path.join(dataDir, SQLITE_FILE_NAME))).toBe(true);
  });

  it("should make the SQLite file (password hashes inside) and its WAL files their owner's only", () => {
    for (const suffix of ['', '-wal', '-shm']) {
      const file = path.join(dataDir, `${SQLITE_FILE_NAME}${suffix}`);
      expect([suffix, existsSync(file) && statSync(file).mode & 0o777]).toEqual([suffix, 0o600]);
    }
  });

  it('should let the demo ApiUser in with some, not all, shops', async () => {
    const demo = user('demo');
    const token = await getToken(api.baseUrl, demo.username, demo.password);
    const shops = await http(api.baseUrl, '/api/v1.0/shops', { headers: bearer(token) });
    expect(shops.body.data).toHaveLength(4);
  });

  it('should hold several weeks of sales with lines, payments and cash movements', async () => {
    const demo = user('demo');
    const token = await getToken(api.baseUrl, demo.username, demo.password);
    const sales = await http(api.baseUrl, '/api/v1.0/sales?Limit=500', { headers: bearer(token) });
    expect(sales.body.data.length).toBe(500);
    expect(sales.body.data[0].lines.length).toBeGreaterThan(0);
    const first = new Date(`${sales.body.data[0].businessDate}T00:00:00Z`).getTime();
    const recent = await http(
      api.baseUrl,
      `/api/v1.0/sales?From=${new Date(first + 28 * 86_400_000).toISOString().slice(0, 10)}&Limit=1`,
      { headers: bearer(token) },
    );
    expect(recent.body.data).toHaveLength(1);
    for (const resource of ['payments', 'cash-movements']) {
      const page = await http(api.baseUrl, `/api/v1.0/${resource}?Limit=5`, {
        headers: bearer(token),
      });
      expect(page.body.data).toHaveLength(5);
    }
  });

  it('should hold a sale uploaded days late: the last in the sales feed, days behind in soldAt', async () => {
    const demo = user('demo');
    const token = await getToken(api.baseUrl, demo.username, demo.password);
    const shops = await http(api.baseUrl, '/api/v1.0/shops', { headers: bearer(token) });
    const shop: string = shops.body.data[0].code;
    let query = `ShopCode=${shop}`;
    let last: { id: string; soldAt: string } | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await http(api.baseUrl, `/api/v1.0/sales/feed?${query}`, {
        headers: bearer(token),
      });
      expect(res.status).toBe(200);
      last = res.body.data.at(-1) ?? last;
      if (res.body.caughtUp) break;
      query = `Cursor=${encodeURIComponent(res.body.nextCursor)}`;
    }
    const lateBy = Date.now() - new Date(`${last?.soldAt}Z`).getTime();
    expect(lateBy).toBeGreaterThan((DEMO_LATE_DAYS - 0.5) * 86_400_000);
    expect(lateBy).toBeLessThan((DEMO_LATE_DAYS + 0.5) * 86_400_000);
    // The period list shows it inside its day, among the sales sold after it.
    const day = last?.soldAt.slice(0, 10);
    const list = await http(api.baseUrl, `/api/v1.0/sales?ShopCode=${shop}&From=${day}`, {
      headers: bearer(token),
    });
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(last?.id);
    expect(list.body.data.at(-1).id).not.toBe(last?.id);
    // The demo holds about 2,900 sales a shop since it seeds the examples' month too: six pages
    // with their lines, longer than jest's default 5 s on a loaded CI machine.
  }, 30_000);

  it('should hold a bar open past midnight across both changes of the clock, a drawer not counted yet', async () => {
    const demo = user('demo');
    const token = await getToken(api.baseUrl, demo.username, demo.password);
    type Sale = { soldAt: string; businessDate: string };
    const sales = async (from: string, to: string): Promise<Sale[]> => {
      const url = `/api/v1.0/sales?ShopCode=${DEMO_BAR.code}&From=${from}&To=${to}&Limit=500`;
      const res = await http(api.baseUrl, url, { headers: bearer(token) });
      expect(res.status).toBe(200);
      return res.body.data as Sale[];
    };
    // Spring forward: sales after midnight, none in the missing hour, all of the evening's day.
    const spring = await sales('2026-03-29T00:00:00', '2026-03-29T06:00:00');
    expect(spring.length).toBeGreaterThan(0);
    expect(spring.filter((s) => s.soldAt.startsWith('2026-03-29T02:'))).toEqual([]);
    expect(new Set(spring.map((s) => s.businessDate))).toEqual(new Set(['2026-03-28']));
    // Fall back: sales in the hour that repeats, of the 24th's business day.
    const repeated = await sales('2026-10-25T02:00:00', '2026-10-25T03:00:00');
    expect(repeated.length).toBeGreaterThan(0);
    expect(new Set(repeated.map((s) => s.businessDate))).toEqual(new Set(['2026-10-24']));
    // The latest drawer of the bar was opened and is not counted yet (from a noon: no night cut).
    const noon = `${new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10)}T12:00:00`;
    let query = `ShopCode=${DEMO_BAR.code}&From=${noon}&Limit=500`;
    const moves: { kind: string; registerCode: string }[] = [];
    for (let page = 0; page < 10 && query; page++) {
      const res = await http(api.baseUrl, `/api/v1.0/cash-movements?${query}`, {
        headers: bearer(token),
      });
      moves.push(...res.body.data);
      query = res.body.nextCursor ? `Cursor=${encodeURIComponent(res.body.nextCursor)}` : '';
    }
    const lastOfRegister = new Map(moves.map((m) => [m.registerCode, m.kind]));
    expect([...lastOfRegister.values()].filter((kind) => kind !== 'CLOSING_COUNT')).toHaveLength(1);
    expect(moves.filter((m) => m.kind === 'CLOSING_COUNT').length).toBe(
      moves.filter((m) => m.kind === 'OPENING_FLOAT').length - 1,
    );
  }, 30_000);

  it('should refuse the demo user without ApiUser with 403, and the disabled one with 401', async () => {
    const manager = user('manager');
    const former = user('former');
    const post = (u: { username: string; password: string }) =>
      http(api.baseUrl, '/api/v1.0/Token', {
        method: 'POST',
        json: { username: u.username, password: u.password },
      });
    expect((await post(manager)).status).toBe(403);
    expect((await post(former)).status).toBe(401);
  });

  it('should not seed again on a restart', async () => {
    await api.close();
    expect(firstFill).toMatch(/^5 shops, \d+ sales from /);
    expect(await fillDemoDatabase(demoDatabase)).toBeUndefined();
    api = await startTestApp({ dataDir });
    const demo = user('demo');
    expect(
      (
        await http(api.baseUrl, '/api/v1.0/Token', {
          method: 'POST',
          json: { username: demo.username, password: demo.password },
        })
      ).status,
    ).toBe(200);
  });
});
