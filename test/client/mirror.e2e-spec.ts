import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { PosReadClient } from '../../packages/client/src/index';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { clientOn } from './support/client-app';
import { inspectState, mirrorTables, storeOf, tamper } from './support/mirror-targets';
import {
  apiLists,
  dayFromToday,
  whileUncommitted,
  writeEverything,
} from './support/mirror-scenario';
import { Wire } from './support/wire';
import { NEWEST_DIGEST_VERSION } from '../../packages/client/src/generated/digests';

jest.setTimeout(60_000);

/** The rows of a mirror's table that keep a field in `extra` (one with no column of its own). */
async function rowsWithExtra(into: string, table: string): Promise<number> {
  const store = await storeOf(into, true);
  try {
    const [row] = await store.all(`SELECT count(*) AS n FROM ${table} WHERE extra IS NOT NULL`);
    return Number(row.n);
  } finally {
    await store.close();
  }
}

describeEachDatabase(
  'Client: mirror() and pos-read mirror/verify keep an exact copy (issue 25)',
  (ctx) => {
    let app: TestApp;
    let wire: Wire;
    let client: PosReadClient;
    let shops: string[];
    let env: Record<string, string>;
    let dir: string;
    let into: string;

    beforeAll(async () => {
      const seeded = await seedBusinessData(ctx.db.db, {
        seed: 25,
        shops: 2,
        days: 4,
        salesPerDay: 12,
        startDate: dayFromToday(-4),
      });
      shops = seeded.shopCodes;
      const user = await createUser(ctx.db.db, { shops: shops });
      env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
      app = await startTestApp(ctx.db);
      wire = new Wire(app.baseUrl);
      client = clientOn(wire, user);
      dir = mkdtempSync(path.join(tmpdir(), 'mirror-e2e-'));
    });
    // Each test its own copy: the scenario of one never depends on another's (jest --randomize).
    let copies = 0;
    beforeEach(() => {
      into = path.join(dir, `copy-${++copies}.sqlite`);
    });
    afterAll(async () => {
      await app?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const mirrorCli = (...args: string[]) =>
      posRead(wire, ['mirror', '--into', into, '--limit', '40', ...args], { env });
    const verifyCli = (...args: string[]) =>
      posRead(wire, ['verify', '--into', into, ...args], { env });
    /** The first pass of a test's own copy, over the database as the earlier tests left it. */
    const firstPass = async () => expect((await mirrorCli()).code).toBe(0);

    it('should copy the shops row for row on a first pass, and verify should exit 0', async () => {
      const first = await mirrorCli();
      expect(first).toMatchObject({ code: 0 });
      expect(first.stderr).toMatch(
        /rows: sales \d+, sale_lines \d+, payments \d+, cash_movements \d+, cash_drawer_sessions [1-9]\d*/,
      );
      expect(first.stderr).toMatch(/days checked, 0 days repaired/);
      // The drawer sessions too; and every field the API sends is a column (none left in extra).
      expect(await mirrorTables(into)).toEqual(await apiLists(client, shops));
      for (const table of ['sales', 'payments', 'cash_movements', 'cash_drawer_sessions']) {
        expect([table, await rowsWithExtra(into, table)]).toEqual([table, 0]);
      }
      const verify = await verifyCli();
      expect(verify).toMatchObject({ code: 0, stdout: '' });
      expect(verify.stderr).toMatch(/^288 days checked, 0 differ$/m);
      // A period of 100 days: two digest requests per shop and resource, every day checked.
      const period = ['--from', dayFromToday(-95), '--to', dayFromToday(5)];
      const closed = await posRead(wire, ['verify', '--into', into, ...period], { env });
      expect(closed).toMatchObject({ code: 0, stdout: '' });
      expect(closed.stderr).toMatch(/^800 days checked, 0 differ$/m);
    });

    it('should end equal after inserts, a late upload, a void, a changed line, a deleted movement, a new reference and a rolled-back insert', async () => {
      await firstPass();
      const [{ max }] = await ctx.db.db.query<Array<{ max: string }>>(
        'SELECT MAX(id) AS max FROM pos_sales',
      );
      const next = BigInt(max) + 100n;
      await writeEverything(ctx.db.db, shops[0], next);
      const rolledBack = next + 50n;
      // MariaDB: a pass runs while the insert is uncommitted. SQLite has one writer, whose open
      // transaction would hold the service's own writes (sign-in) off: there it is only undone.
      const passes: string[] = [];
      await whileUncommitted(ctx.db.db, { id: rolledBack, shopCode: shops[1] }, async () => {
        if (ctx.kind !== 'mysql') return;
        const during = await mirrorCli();
        expect(during).toMatchObject({ code: 0 });
        passes.push(during.stderr);
      });
      const after = await mirrorCli();
      expect(after.code).toBe(0);
      passes.push(after.stderr);
      // The void, the line, the movement and the reference reach it only by the digests.
      expect(passes.join('')).toMatch(/, [1-9]\d* days repaired/);
      const tables = await mirrorTables(into);
      expect(tables).toEqual(await apiLists(client, shops));
      expect((tables.sales as Array<{ id: string }>).map((s) => s.id)).not.toContain(
        String(rolledBack),
      );
      expect(tables.sales).toContainEqual(expect.objectContaining({ id: String(next + 1n) }));
      expect(await verifyCli()).toMatchObject({ code: 0, stdout: '' });
    });

    it('should have verify name an edit made behind its back, and the next pass repair it', async () => {
      await firstPass();
      const [payment] = await ctx.db.db.query<Array<{ id: string; paid_at: string | Date }>>(
        'SELECT id, paid_at FROM pos_payments WHERE shop_code = ? ORDER BY id DESC LIMIT 1',
        [shops[1]],
      );
      await ctx.db.db.query("UPDATE pos_payments SET method = 'VOUCHER' WHERE id = ?", [
        payment.id,
      ]);
      await tamper(
        into,
        "UPDATE sales SET status = 'TAMPERED' WHERE id = (SELECT MIN(id) FROM sales)",
      );
      const verify = await verifyCli();
      expect(verify.code).toBe(8);
      const differing = verify.stdout.trim().split('\n');
      expect(differing).toHaveLength(2);
      expect(differing).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^payments ${shops[1]} \\d{4}-\\d\\d-\\d\\d: server \\d+ records, mirror \\d+$`,
          ),
        ),
      );
      expect(differing).toContainEqual(expect.stringMatching(/^sales SHOP\d+ /));
      expect(verify.stderr).toMatch(/2 differ/);

      const repair = await mirrorCli();
      expect(repair.stderr).toMatch(/, 2 days repaired/);
      expect(await mirrorTables(into)).toEqual(await apiLists(client, shops));
      expect(await verifyCli()).toMatchObject({ code: 0 });
    });

    it('should verify by business date with --by business-date, name the business date of a changed row, and repair it with mirror --by business-date', async () => {
      await firstPass();
      const byBusinessDate = ['--by', 'business-date'];
      const clean = await verifyCli(...byBusinessDate);
      expect(clean).toMatchObject({ code: 0, stdout: '' });
      expect(clean.stderr).toMatch(/^288 days checked, 0 differ$/m);
      const [payment] = await ctx.db.db.query<Array<{ id: string }>>(
        'SELECT id FROM pos_payments WHERE shop_code = ? ORDER BY id DESC LIMIT 1',
        [shops[0]],
      );
      await ctx.db.db.query("UPDATE pos_payments SET reference = 'BY-BUSINESS-DATE' WHERE id = ?", [
        payment.id,
      ]);
      const record = (await apiLists(client, shops)).payments.find(
        (p) => p.id === String(payment.id),
      );
      const verify = await verifyCli(...byBusinessDate);
      expect(verify.code).toBe(8);
      expect(verify.stdout).toMatch(
        new RegExp(
          `^payments ${shops[0]} ${record?.businessDate as string}: server \\d+ records, mirror \\d+\n$`,
        ),
      );
      const repair = await mirrorCli(...byBusinessDate);
      expect(repair.stderr).toMatch(/, 1 days repaired/);
      expect(await mirrorTables(into)).toEqual(await apiLists(client, shops));
      expect(await verifyCli(...byBusinessDate)).toMatchObject({ code: 0, stdout: '' });
      const bad = await verifyCli('--by', 'fiscal-date');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--by is calendar-date \(the default\) or business-date/);
    });

    it('should keep verifying a copy built before digest versions (version 1), and move it to the newest on purpose, re-reading once', async () => {
      expect(await mirrorCli()).toMatchObject({ code: 0 });
      const state = async () =>
        (await inspectState(into)).find(([key]) => key === 'digest_version')?.[1];
      expect(await state()).toBe(String(NEWEST_DIGEST_VERSION));
      // As the client before issue 42 left it: records without the new instants, no version.
      await tamper(into, 'UPDATE sales SET sold_at_utc = NULL');
      await tamper(into, 'UPDATE payments SET paid_at_utc = NULL');
      await tamper(into, 'UPDATE cash_movements SET moved_at_utc = NULL');
      await tamper(into, "DELETE FROM mirror_state WHERE key = 'digest_version'");
      const before = wire.sent.length;
      const verify = await verifyCli();
      expect(verify).toMatchObject({ code: 0, stdout: '' });
      expect(verify.stderr).toMatch(/^288 days checked, 0 differ$/m);
      const digests = wire.sent
        .slice(before)
        .map((r) => r.url)
        .filter((url) => url.includes('/digest?'));
      expect(digests.length).toBeGreaterThan(0);
      expect(digests.every((r) => /[?&]Version=1(&|$)/.test(r))).toBe(true);
      expect(await state()).toBeUndefined();
      // Moved on purpose: recorded, the days whose records lack the new fields re-read once.
      const moved = await mirrorCli('--newest-digests');
      expect(moved).toMatchObject({ code: 0 });
      expect(moved.stderr).not.toMatch(/ 0 days repaired/);
      expect(await state()).toBe(String(NEWEST_DIGEST_VERSION));
      expect(await mirrorTables(into)).toEqual(await apiLists(client, shops));
      expect((await verifyCli()).stderr).toMatch(/^288 days checked, 0 differ$/m);
      expect((await mirrorCli()).stderr).toMatch(/ 0 days repaired/);
    });

    it('should leave no file behind when --shop names a shop the user may not read (issue 56)', async () => {
      const refused = await mirrorCli('--shop', 'SHOP004');
      expect(refused.code).toBe(10);
      expect(refused.stderr).toMatch(/may not read the shop SHOP004/);
      expect(readdirSync(dir).filter((file) => file.startsWith(path.basename(into)))).toEqual([]);
    });

    it('should write --progress to a file or a pipe as one line per step, with no carriage return (issue 56)', async () => {
      const run = await mirrorCli('--progress');
      expect(run.code).toBe(0);
      expect(run.stderr).not.toContain('\r');
      const steps = run.stderr.split('\n').filter((line) => line.startsWith('mirror: '));
      expect(steps.length).toBeGreaterThan(1);
      for (const line of steps)
        expect(line).toMatch(/^mirror: \d+ pages, \d+ records, \d+ days re-read$/);
    });

    it('should refuse another copy, a missing file for verify and a bad window with their exit codes', async () => {
      await firstPass();
      const other = await posRead(wire, ['mirror', '--into', into, '--shop', shops[0]], { env });
      expect(other.code).toBe(9);
      expect(other.stderr).toMatch(
        /mirrors every shop of the token \(recorded in it\); --shop SHOP\d+ narrows it\. Leave out --shop/,
      );
      const unknown = await posRead(wire, ['verify', '--into', into, '--shop', 'shop001'], { env });
      expect(unknown.code).toBe(10);
      expect(unknown.stderr).toMatch(
        new RegExp(`may not read the shop shop001: its shops are ${shops.join(', ')} \\(codes`),
      );
      const password = await posRead(
        wire,
        ['mirror', '--into', 'postgres://mirror:secret@127.0.0.1/pos'],
        { env },
      );
      expect(password.code).toBe(2);
      expect(password.stderr).toMatch(/a password in --into is refused .* PGPASSWORD/);
      const missing = await posRead(wire, ['verify', '--into', path.join(dir, 'none.sqlite')], {
        env,
      });
      expect(missing.code).toBe(9);
      const window = await posRead(wire, ['mirror', '--into', into, '--window', '92'], { env });
      expect(window.code).toBe(2);
      expect(window.stderr).toMatch(/--window is a whole number from 1 to 91/);
      const period = await posRead(wire, ['verify', '--into', into, '--from', '2026-01-01'], {
        env,
      });
      expect(period.code).toBe(2);
      expect(period.stderr).toMatch(/--from and --to go together/);
    });
  },
);
