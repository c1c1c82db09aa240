import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { PosReadClient } from '../../packages/client/src/index';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { insertCashMovement } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { requires } from '../support/requirements';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { clientOn } from './support/client-app';
import { MIRROR_TARGETS, mirrorTables, storeOf } from './support/mirror-targets';
import { apiLists, dayFromToday } from './support/mirror-scenario';
import { Wire } from './support/wire';

jest.setTimeout(180_000);

/** The tables of a mirror, the column each dates its rows by and the resource verify names. */
const PLANTED = [
  { table: 'sales', day: 'sold_at', resource: 'sales', edit: "total_gross = '0.01'" },
  { table: 'sale_lines', day: 'sold_at', resource: 'sales', edit: "gross = '0.01'" },
  { table: 'payments', day: 'paid_at', resource: 'payments', edit: "reference = 'EDITED'" },
  { table: 'cash_movements', day: 'moved_at', resource: 'cash-movements', edit: "amount = '0.01'" },
  {
    table: 'cash_drawer_sessions',
    day: 'opened_at',
    resource: 'cash-drawer-sessions',
    edit: "expected = '0.01'",
  },
] as const;
type Planted = (typeof PLANTED)[number];
type Fault = 'missing' | 'extra' | 'edited';

/**
 * Plants `fault` in one row of `t` dated `nth` day of the window holding its rows (a sale's line
 * by its sale's day), behind the mirror's back; returns the day it is in.
 */
async function plant(into: string, t: Planted, fault: Fault, nth: number): Promise<string> {
  const store = await storeOf(into);
  try {
    const from = dayFromToday(-30);
    const lines = t.table === 'sale_lines';
    const rows = await store.all(
      lines
        ? `SELECT l.*, substr(s.sold_at, 1, 10) AS day_ FROM sale_lines l JOIN sales s ON s.id = l.sale_id WHERE substr(s.sold_at, 1, 10) >= ? ORDER BY day_, l.sale_id, l.line_no`
        : `SELECT ${t.table}.*, substr(${t.day}, 1, 10) AS day_ FROM ${t.table} WHERE substr(${t.day}, 1, 10) >= ? ORDER BY day_, id`,
      [from],
    );
    const days = [...new Set(rows.map((row) => String(row.day_)))];
    const day = days[nth];
    const row = { ...(rows.find((r) => r.day_ === day) as Record<string, unknown>) };
    delete row.day_;
    const key = lines
      ? { sql: 'sale_id = ? AND line_no = ?', values: [row.sale_id, row.line_no] }
      : { sql: 'id = ?', values: [row.id] };
    if (fault === 'missing') {
      if (t.table === 'sales')
        await store.run('DELETE FROM sale_lines WHERE sale_id = ?', [row.id]);
      await store.run(`DELETE FROM ${t.table} WHERE ${key.sql}`, key.values);
    } else if (fault === 'edited') {
      await store.run(`UPDATE ${t.table} SET ${t.edit} WHERE ${key.sql}`, key.values);
    } else {
      const copy = lines
        ? { ...row, line_no: 99 }
        : { ...row, id: BigInt(String(row.id)) + 1_000_000_000n };
      const columns = Object.keys(copy);
      await store.run(
        `INSERT INTO ${t.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        Object.values(copy),
      );
    }
    return day;
  } finally {
    await store.close();
  }
}

describeEachDatabase(
  'Client: the whole copy, every table verified (issue 55)',
  (ctx) => {
    let app: TestApp;
    let wire: Wire;
    let client: PosReadClient;
    let shops: string[];
    let env: Record<string, string>;
    let dir: string;

    beforeAll(async () => {
      // 45 days: the first ten before the mirror's 35-day window.
      const seeded = await seedBusinessData(ctx.db.db, {
        seed: 55,
        shops: 1,
        days: 45,
        salesPerDay: 4,
        startDate: dayFromToday(-46),
      });
      shops = seeded.shopCodes;
      const user = await createUser(ctx.db.db, { shops });
      env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
      // Each test runs mirror and verify several times a minute: a sign-in and three digests each.
      app = await startTestApp(ctx.db, {
        DIGEST_CALLS_PER_MINUTE: '10000',
        TOKEN_RATE_LIMIT_PER_MINUTE: '10000',
      });
      wire = new Wire(app.baseUrl);
      client = clientOn(wire, user);
      dir = mkdtempSync(path.join(tmpdir(), 'mirror-whole-'));
    });
    afterAll(async () => {
      await app?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const cli = (command: string, into: string) =>
      posRead(wire, [command, '--into', into, '--limit', '100'], { env });

    for (const target of MIRROR_TARGETS) {
      requires(...target.requires).describe(`into ${target.kind}`, () => {
        let into: string;
        let drop = async () => undefined as void;
        beforeEach(async () => {
          const place = await target.create(dir, 'whole');
          into = place.into;
          drop = place.drop;
        });
        afterEach(() => drop());

        it('should hold every drawer session of the shop after the first copy, those opened before the window too, and a session counted later current after the next', async () => {
          // A register of this test's own, opened 40 days ago and never counted so far.
          const register = `RW${target.kind.slice(0, 3).toUpperCase()}`;
          await ctx.db.db.query('INSERT INTO pos_registers (shop_code, code) VALUES (?, ?)', [
            shops[0],
            register,
          ]);
          const [{ max }] = await ctx.db.db.query<Array<{ max: string }>>(
            'SELECT MAX(id) AS max FROM pos_cash_movements',
          );
          const opening = `${dayFromToday(-40)} 08:00:00.000`;
          const float = { shopCode: shops[0], registerCode: register, amount: '100.00' };
          await insertCashMovement(ctx.db.db, {
            ...float,
            id: BigInt(max) + 1n,
            movedAt: opening,
            kind: 'OPENING_FLOAT',
          });
          expect(await cli('mirror', into)).toMatchObject({ code: 0 });
          const api = await apiLists(client, shops);
          const sessions = api['cash-drawer-sessions'] as Array<Record<string, unknown>>;
          // What the mirror of before missed: sessions opened before its window.
          expect(
            sessions.filter((s) => String(s.openedAt) < dayFromToday(-36)).length,
          ).toBeGreaterThan(5);
          const copy = await mirrorTables(into);
          for (const resource of Object.keys(api)) {
            expect([resource, copy[resource]?.length]).toEqual([resource, api[resource].length]);
          }
          expect(copy).toEqual(api);
          const open = (copy['cash-drawer-sessions'] as Array<Record<string, unknown>>).find(
            (s) => s.registerCode === register,
          );
          expect(open).toMatchObject({ status: 'OPEN' });

          // Counted yesterday: the session opened before the window changes, the next pass has it.
          await insertCashMovement(ctx.db.db, {
            ...float,
            id: BigInt(max) + 2n,
            movedAt: `${dayFromToday(-1)} 20:00:00.000`,
            kind: 'CLOSING_COUNT',
            amount: '-100.00',
          });
          const before = wire.sent.length;
          expect(await cli('mirror', into)).toMatchObject({ code: 0 });
          const reads = wire.sent
            .slice(before)
            .map((r) => r.url)
            .filter((url) => url.includes('/cash-drawer-sessions?'));
          // Not the whole list again: the window, and the day of that open session.
          expect(reads.every((url) => /[?&]From=/.test(url))).toBe(true);
          expect(reads.some((url) => url.includes(`From=${dayFromToday(-40)}&`))).toBe(true);
          const again = await mirrorTables(into);
          expect(again).toEqual(await apiLists(client, shops));
          expect(
            (again['cash-drawer-sessions'] as Array<Record<string, unknown>>).find(
              (s) => s.registerCode === register,
            ),
          ).toMatchObject({ status: 'CLOSED', counted: '100.00' });
          expect(await cli('verify', into)).toMatchObject({ code: 0, stdout: '' });
        });

        for (const fault of ['missing', 'extra', 'edited'] as const) {
          it(`should have verify name a ${fault} row of each table (its table and day, exit 8) and the next mirror repair it`, async () => {
            expect(await cli('mirror', into)).toMatchObject({ code: 0 });
            const named = new Set<string>();
            for (const [n, t] of PLANTED.entries()) {
              const day = await plant(into, t, fault, n);
              named.add(`${t.resource} ${shops[0]} ${day}`);
            }
            const verify = await cli('verify', into);
            expect(verify.code).toBe(8);
            const lines = verify.stdout.trim().split('\n');
            expect(
              lines.map((line) => line.replace(/: server \d+ records, mirror \d+$/, '')).sort(),
            ).toEqual([...named].sort());
            expect(verify.stderr).toMatch(new RegExp(`${named.size} differ`));
            expect(await cli('mirror', into)).toMatchObject({ code: 0 });
            expect(await cli('verify', into)).toMatchObject({ code: 0, stdout: '' });
            expect(await mirrorTables(into)).toEqual(await apiLists(client, shops));
          });
        }
      });
    }
  },
  { only: ['sqlite'] },
);
