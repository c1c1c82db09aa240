import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { Wire } from './support/wire';

const PERIOD = ['--from', '2026-03-10', '--to', '2026-03-15'];

describeEachDatabase(
  'pos-read days and client.businessDays: the day close (issue 42, item 6)',
  (ctx) => {
    let app: TestApp;
    let wire: Wire;
    let env: Record<string, string>;
    let shop: string;
    let served: { version: number; data: Array<Record<string, any>> };
    let dir: string;

    beforeAll(async () => {
      const seeded = await seedBusinessData(ctx.db.db, {
        seed: 42,
        shops: 2,
        days: 4,
        salesPerDay: 12,
        startDate: '2026-03-10',
      });
      shop = seeded.shopCodes[0];
      const user = await createUser(ctx.db.db, { shops: [shop] });
      env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
      app = await startTestApp(ctx.db, { TOKEN_RATE_LIMIT_PER_MINUTE: '200' });
      wire = new Wire(app.baseUrl);
      const token = await getToken(app.baseUrl, user.username, user.password);
      const answer = await http(
        app.baseUrl,
        `/api/v1.0/business-days?ShopCode=${shop}&From=2026-03-10&To=2026-03-15`,
        { headers: bearer(token) },
      );
      expect(answer.status).toBe(200);
      served = answer.body;
      dir = mkdtempSync(path.join(tmpdir(), 'pos-read-days-'));
    });
    afterAll(async () => {
      await app?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('should print the answer of GET /business-days with --format json: every date, the empty one too', async () => {
      const result = await posRead(wire, ['days', '--shop', shop, ...PERIOD, '--format', 'json'], {
        env,
      });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toEqual(served);
      expect(served.data.map((d) => d.businessDate)).toEqual([
        '2026-03-10',
        '2026-03-11',
        '2026-03-12',
        '2026-03-13',
        '2026-03-14',
      ]);
      expect(served.data[4].sales.completed).toBe(0);
      expect(served.data[0].sales.completed).toBeGreaterThan(0);
    });

    it('should write CSV when the output is not a terminal: a row a date, every figure under its path, methods as columns', async () => {
      const result = await posRead(wire, ['days', '--shop', shop, ...PERIOD], { env });
      expect(result.code).toBe(0);
      const rows: Array<Record<string, string>> = parse(result.stdout, { columns: true });
      expect(rows.map((r) => r.businessDate)).toEqual(served.data.map((d) => d.businessDate));
      served.data.forEach((day, i) => {
        const row = rows[i];
        expect(row['sales.completed']).toBe(String(day.sales.completed));
        expect(row['sales.gross']).toBe(day.sales.gross);
        expect(row['payments.amount']).toBe(day.payments.amount);
        expect(row['cash.expected']).toBe(day.cash.expected ?? '');
        expect(row['digests.sales.checksum']).toBe(day.digests.sales.checksum);
        for (const method of day.payments.methods) {
          expect(row[`payments.${method.method}.amount`]).toBe(method.amount);
        }
        const amounts = Object.keys(row).filter((k) => /^payments\.[^.]+\.amount$/.test(k));
        const sum = amounts.reduce((total, k) => total + Math.round(Number(row[k]) * 100), 0);
        expect(sum).toBe(Math.round(Number(day.payments.amount) * 100));
      });
    });

    it('should write a spreadsheet CSV with --csv-excel --decimal-comma into --out, private to its owner', async () => {
      const out = path.join(dir, 'days.csv');
      const result = await posRead(
        wire,
        ['days', '--shop', shop, ...PERIOD, '--csv-excel', '--decimal-comma', '--out', out],
        { env },
      );
      expect(result).toMatchObject({ code: 0, stdout: '' });
      const text = readFileSync(out, 'utf8');
      expect(text.startsWith('\uFEFFbusinessDate;sales.completed;')).toBe(true);
      const first = text.split('\r\n')[1].split(';');
      expect(first[0]).toBe('"2026-03-10"');
      expect(first).toContain(`"${served.data[0].sales.gross.replace('.', ',')}"`);
      expect(statSync(out).mode & 0o777).toBe(0o600);
    });

    it('should draw a table on a terminal: a header and a line a date', async () => {
      const result = await posRead(wire, ['days', '--shop', shop, ...PERIOD], {
        env,
        stdoutIsTTY: true,
      });
      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^business date\s+sales\s+returns\s+voided\s+gross/);
      expect(lines.slice(1).map((line) => line.slice(0, 10))).toEqual(
        served.data.map((d) => d.businessDate),
      );
      expect(lines[1]).toContain(served.data[0].sales.gross);
    });

    it.each([
      [['days', ...PERIOD], 2, /days needs --shop/],
      [['days', '--shop', 'X', '--from', '2026-03-10'], 2, /--to/],
      [
        ['days', '--shop', 'X', '--from', '2026-03-10T06:00', '--to', '2026-03-11'],
        2,
        /business dates/,
      ],
      [['days', '--shop', 'X', ...PERIOD, '--format', 'ndjson'], 2, /table, csv or json/],
    ])('should refuse %j with exit %i, saying what to fix', async (argv, code, message) => {
      const result = await posRead(wire, argv, { env });
      expect(result.code).toBe(code);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    });

    it("should refuse a shop outside the token with exit 10, naming the token's shops, never an empty close", async () => {
      const result = await posRead(wire, ['days', '--shop', shop.toLowerCase(), ...PERIOD], {
        env,
      });
      expect(result.code).toBe(10);
      expect(result.stderr).toContain(shop);
      expect(result.stdout).toBe('');
    });
  },
);
