import { parse } from 'csv-parse/sync';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { partialFileOf, stateFileOf } from '../../packages/client/src/cli/export';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { clientOn } from './support/client-app';
import { idsInDatabase } from './support/database-ids';
import { Wire } from './support/wire';

const MONTH = ['--from', '2026-03-01', '--to', '2026-04-01'];

/** The CSV back into records: an unquoted empty field is null, JSON columns parsed. */
function parseCsv(text: string): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = parse(text, {
    columns: true,
    cast: (value, context) => (value === '' && !context.quoting ? null : value),
  });
  for (const row of rows) if (typeof row.lines === 'string') row.lines = JSON.parse(row.lines);
  return rows;
}

const parseNdjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describeEachDatabase('pos-read, the command line tool (issue 15)', (ctx) => {
  let app: TestApp;
  let env: Record<string, string>;
  let shop: string;
  let dir: string;

  beforeAll(async () => {
    const seeded = await seedBusinessData(ctx.db.db, {
      seed: 31,
      shops: 1,
      days: 5,
      salesPerDay: 10,
      startDate: '2026-03-10',
    });
    shop = seeded.shopCodes[0];
    const user = await createUser(ctx.db.db, { shops: seeded.shopCodes });
    env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
    // Every pos-read run signs in once: the file's runs add up to more than the 30 token
    // requests a minute one address may send (the limit has specs of its own).
    app = await startTestApp(ctx.db, { TOKEN_RATE_LIMIT_PER_MINUTE: '200' });
    dir = mkdtempSync(path.join(tmpdir(), 'pos-read-cli-'));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([['sales'], ['payments'], ['cash-movements']])(
    'should export a month of %s to NDJSON and to CSV files that parse back to the same records',
    async (resource) => {
      const wire = new Wire(app.baseUrl);
      const ndjson = path.join(dir, `${resource}.ndjson`);
      const csv = path.join(dir, `${resource}.csv`);
      const base = ['export', resource, '--shop', shop, ...MONTH, '--limit', '25'];
      const a = await posRead(wire, [...base, '--format', 'ndjson', '--out', ndjson], { env });
      const b = await posRead(wire, [...base, '--format', 'csv', '--out', csv], { env });
      expect([a.code, b.code]).toEqual([0, 0]);
      expect(a.stderr).toMatch(/^\d+ records, \d+ pages written to /);
      const fromNdjson = parseNdjson(readFileSync(ndjson, 'utf8'));
      const key = resource === 'cash-movements' ? 'cashMovements' : (resource as 'sales');
      const expected = await idsInDatabase(ctx.db.db, key, {
        shopCode: shop,
        from: '2026-03-01',
        to: '2026-04-01',
      });
      expect(fromNdjson.map((r) => r.id)).toEqual(expected);
      expect(parseCsv(readFileSync(csv, 'utf8'))).toEqual(fromNdjson);
      const client = clientOn(new Wire(app.baseUrl), {
        username: env.POS_READ_USERNAME,
        password: env.POS_READ_PASSWORD,
      });
      const listed = await client[key]
        .list({ shopCode: shop, from: '2026-03-01', to: '2026-04-01' })
        .toArray();
      expect(fromNdjson).toEqual(listed);
      // A period without records: the same header row, never a 0-byte file (issue 43).
      const empty = path.join(dir, `${resource}-empty.csv`);
      const period = ['--from', '2020-01-01', '--to', '2020-01-02'];
      const none = await posRead(
        wire,
        ['export', resource, '--shop', shop, ...period, '--format', 'csv', '--out', empty],
        { env },
      );
      expect(none.code).toBe(0);
      expect(readFileSync(empty, 'utf8')).toBe(readFileSync(csv, 'utf8').split('\r\n')[0] + '\r\n');
    },
  );

  it('should say in --help where export writes by default, and replace an existing --out file only with --force (issue 56)', async () => {
    const wire = new Wire(app.baseUrl);
    const help = await posRead(wire, ['--help']);
    expect(help.stdout).toMatch(
      /output: standard output unless --out FILE; an existing\s+FILE is replaced only with --force/,
    );
    const out = path.join(dir, 'kept.csv');
    writeFileSync(out, 'an earlier export\n');
    const argv = ['export', 'sales', '--shop', shop, ...MONTH, '--format', 'csv', '--out', out];
    const refused = await posRead(wire, argv, { env });
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: `pos-read: ${out} exists: add --force to replace it, or give another --out (nothing was written)\n`,
    });
    expect(readFileSync(out, 'utf8')).toBe('an earlier export\n');
    const forced = await posRead(wire, [...argv, '--force'], { env });
    expect(forced.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^id,shopCode,/);
  });

  it('should export sales for a spreadsheet: BOM, semicolons, decimal commas, one row per sale line (issue 43)', async () => {
    const out = path.join(dir, 'lines.csv');
    const argv = ['export', 'sales', '--shop', shop, ...MONTH, '--csv-excel', '--decimal-comma'];
    const result = await posRead(new Wire(app.baseUrl), [...argv, '--lines', '--out', out], {
      env,
    });
    expect(result.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('\uFEFFsaleId;shopCode;registerCode;ticketNumber;')).toBe(true);
    const rows: Array<Record<string, unknown>> = parse(text, {
      bom: true,
      delimiter: ';',
      columns: true,
      cast: (value, context) => (value === '' && !context.quoting ? null : value),
    });
    const client = clientOn(new Wire(app.baseUrl), {
      username: env.POS_READ_USERNAME,
      password: env.POS_READ_PASSWORD,
    });
    const sales = await client.sales
      .list({ shopCode: shop, from: '2026-03-01', to: '2026-04-01' })
      .toArray();
    const cell = (v: unknown) =>
      typeof v === 'number'
        ? String(v)
        : typeof v === 'string' && /^-?\d+\.\d+$/.test(v)
          ? v.replace('.', ',')
          : v;
    const keys = [
      'shopCode',
      'registerCode',
      'ticketNumber',
      'kind',
      'status',
      'businessDate',
      'soldAt',
      'currency',
    ] as const;
    const expected = sales.flatMap((sale) =>
      sale.lines.map((line) =>
        Object.fromEntries(
          Object.entries({
            saleId: sale.id,
            ...Object.fromEntries(keys.map((k) => [k, sale[k]])),
            ...line,
          }).map(([k, v]) => [k, cell(v)]),
        ),
      ),
    );
    expect(expected.length).toBeGreaterThan(sales.length);
    expect(rows).toEqual(expected);
    expect(JSON.stringify(rows)).toMatch(/"gross":"\d+,\d\d"/);
  });

  it('should refuse a --shop the token lacks, another case included, with exit 10 and the shops it has (issue 43)', async () => {
    const wire = new Wire(app.baseUrl);
    for (const argv of [
      ['export', 'sales', '--shop', shop.toLowerCase(), '--out', path.join(dir, 'none.csv')],
      ['report', '--from', '2026-03-01', '--to', '2026-03-02', '--shop', 'NOPE'],
    ]) {
      const result = await posRead(wire, argv, { env });
      expect(result.code).toBe(10);
      expect(result.stderr).toMatch(
        new RegExp(
          `may not read the shop \\S+: its shops are ${shop} \\(codes are compared exactly`,
        ),
      );
    }
    expect(existsSync(path.join(dir, 'none.csv'))).toBe(false);
  });

  it('should go on with an interrupted export with --resume, ending with every record exactly once', async () => {
    const out = path.join(dir, 'resumed.csv');
    const args = [
      'export',
      'sales',
      '--shop',
      shop,
      ...MONTH,
      '--limit',
      '10',
      '--format',
      'csv',
      '--out',
      out,
    ];
    const wire = new Wire(app.baseUrl);
    const controller = new AbortController();
    const interrupting = new Wire(app.baseUrl);
    const fetchThenStop: typeof fetch = async (input, init) => {
      if (interrupting.dataRequests().length === 3) controller.abort();
      return interrupting.fetch(input, init);
    };
    const first = await posRead(wire, args, {
      env,
      signal: controller.signal,
      client: { fetch: fetchThenStop },
    });
    expect(first.code).toBe(130);
    // The exact command that goes on (issue 22): pos-read, what was typed, --resume.
    const [said, hint, printed] = first.stderr.split('\n');
    expect([said, hint]).toEqual(['pos-read: interrupted', 'To go on where it stopped, run:']);
    const [program, ...again] = printed.trim().split(' ');
    expect(program).toBe('pos-read');
    expect(again).toEqual(['--base-url', expect.any(String), ...args, '--resume']);
    expect(existsSync(stateFileOf(out))).toBe(true);

    // Another export's options with --resume: which option, and no usage text (issue 22).
    const other = await posRead(wire, [...args.map((a) => (a === '10' ? '20' : a)), '--resume'], {
      env,
    });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--limit 20 here, --limit 10 there/);
    expect(other.stderr).not.toMatch(/Usage:|--from|--shop/);
    expect(wire.dataRequests()).toEqual([]);

    // Written beside --out until whole (issue 54): --out does not exist yet.
    expect(existsSync(out)).toBe(false);
    // A page half-written when the process died: --resume cuts the file back to the last page.
    appendFileSync(partialFileOf(out), '"900001","SHOP');
    const second = await posRead(wire, again.slice(2), { env });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/\(resumed\)/);
    expect(existsSync(stateFileOf(out))).toBe(false);
    const ids = parseCsv(readFileSync(out, 'utf8')).map((r) => r.id);
    const expected = await idsInDatabase(ctx.db.db, 'sales', {
      shopCode: shop,
      from: '2026-03-01',
      to: '2026-04-01',
    });
    expect(ids).toEqual(expected);
    expect(wire.dataRequests()[0].url).toContain('Cursor=');
  });

  it('should say "1 page", not "1 pages", when the export took one page (issue 22)', async () => {
    const out = path.join(dir, 'one-page.ndjson');
    const result = await posRead(
      new Wire(app.baseUrl),
      ['export', 'sales', '--shop', shop, ...MONTH, '--limit', '500', '--out', out, '--progress'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/: \d+ records, 1 page, \d+ records\/s\n/);
    expect(result.stderr).toMatch(/\n\d+ records, 1 page written to /);
  });

  it('should print a progress line on standard error: records, pages, rate', async () => {
    const result = await posRead(
      new Wire(app.baseUrl),
      ['export', 'payments', '--shop', shop, '--limit', '50', '--progress'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/export payments: \d+ records, \d+ pages, \d+ records\/s\n$/);
    expect(parseNdjson(result.stdout).length).toBeGreaterThan(0);
  });

  it('should refuse credentials on the command line, before any request', async () => {
    const wire = new Wire(app.baseUrl);
    const result = await posRead(wire, ['shops', '--password', 'secret-on-argv'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/never taken from the command line/);
    expect(wire.sent).toEqual([]);
  });

  it('should read the password from standard input with --password-stdin', async () => {
    const result = await posRead(new Wire(app.baseUrl), ['shops', '--password-stdin'], {
      env: { POS_READ_USERNAME: env.POS_READ_USERNAME },
      stdin: `${env.POS_READ_PASSWORD}\n`,
    });
    expect(result.code).toBe(0);
    expect(parseNdjson(result.stdout).map((s) => s.code)).toEqual([shop]);
  });

  it('should print the token expiry and not the token, unless --show', async () => {
    const wire = new Wire(app.baseUrl);
    const plain = await posRead(wire, ['token'], { env });
    expect(plain.stdout).toMatch(/^expires \d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
    expect(plain.stdout + plain.stderr).not.toContain(wire.issued[0]);
    const shown = await posRead(wire, ['token', '--show'], { env });
    expect(shown.stdout).toBe(`${wire.issued[1]}\n`);
    expect(shown.stderr).toMatch(/^expires /);
  });

  it('should write the report as CSV with --csv', async () => {
    const out = path.join(dir, 'report.csv');
    const result = await posRead(
      new Wire(app.baseUrl),
      ['report', ...['--from', '2026-03-10', '--to', '2026-03-12'], '--csv', '--out', out],
      { env },
    );
    expect(result.code).toBe(0);
    const rows: unknown[] = parse(readFileSync(out, 'utf8'), { columns: true });
    expect(rows.length).toBeGreaterThan(0);
  });

  it('should exit 3 with a clear message on 401, 4 on 403, 5 on 429', async () => {
    const wire = new Wire(app.baseUrl);
    const wrong = await posRead(wire, ['shops'], {
      env: { ...env, POS_READ_PASSWORD: 'wrong-password-cli' },
    });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/authentication failed: .*repeated failures lock the account/);

    const manager = await createUser(ctx.db.db, { roles: [] });
    const forbidden = await posRead(wire, ['shops'], {
      env: { POS_READ_USERNAME: manager.username, POS_READ_PASSWORD: manager.password },
    });
    expect(forbidden.code).toBe(4);
    expect(forbidden.stderr).toMatch(/forbidden: .*role ApiUser/);

    const busy = await createUser(ctx.db.db, { shops: [shop] });
    const busyEnv = { POS_READ_USERNAME: busy.username, POS_READ_PASSWORD: busy.password };
    const report = ['report', '--from', '2026-03-10', '--to', '2026-03-11'];
    for (let call = 0; call < 12; call++)
      expect((await posRead(wire, report, { env: busyEnv })).code).toBe(0);
    const limited = await posRead(wire, report, {
      env: busyEnv,
      client: { retry: { maxRateLimitWaitMs: 0 } },
    });
    expect(limited.code).toBe(5);
    expect(limited.stderr).toMatch(/rate limited: .*Try again in \d+ s\./);
    // Fifteen runs of the tool, three sign-ins and twelve reports: past jest's 5 s under load.
  }, 60_000);
});
