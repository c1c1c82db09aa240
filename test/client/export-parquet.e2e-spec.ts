import { DuckDBInstance } from '@duckdb/node-api';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PosReadClient } from '../../packages/client/src/client';
import { addDays } from '../../packages/client/src/mirror/reconcile';
import { PARQUET_TABLES, type ParquetColumn } from '../../packages/client/src/parquet/columns';
import { partitionDir, type PartitionSummary } from '../../packages/client/src/parquet/partitions';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { clientOn } from './support/client-app';
import { Wire } from './support/wire';

// Sign-ins (argon2), three exports and their read-backs: slow on a loaded machine.
jest.setTimeout(120_000);

const FROM = '2026-03-10';
const TO = '2026-03-13';
const RANGE = ['--from', FROM, '--to', TO];

type ApiRecord = Record<string, unknown>;

/** A column read back by DuckDB as the API writes the field (text, or null). */
function asApiText(c: ParquetColumn): string {
  const name = `"${c.field}"`;
  switch (c.type.kind) {
    case 'local-time':
      return `strftime(${name}, '%Y-%m-%dT%H:%M:%S.%g')`;
    case 'instant':
      return `strftime(${name} AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ')`;
    case 'date':
      return `strftime(${name}, '%Y-%m-%d')`;
    default:
      return `CAST(${name} AS VARCHAR)`;
  }
}

const apiText = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** The API's records as the Parquet columns hold them, ordered like the read-back. */
function expectedRows(columns: readonly ParquetColumn[], records: ApiRecord[]) {
  return records.map((r) => Object.fromEntries(columns.map((c) => [c.field, apiText(r[c.field])])));
}

describeEachDatabase('pos-read export --format parquet (issue 43, item 4)', (ctx) => {
  let app: TestApp;
  let env: Record<string, string>;
  let client: PosReadClient;
  let dir: string;
  let shops: string[];
  let duck: DuckDBInstance;

  beforeAll(async () => {
    const seeded = await seedBusinessData(ctx.db.db, {
      seed: 43,
      shops: 2,
      days: 4,
      salesPerDay: 6,
      startDate: FROM,
    });
    shops = seeded.shopCodes;
    const user = await createUser(ctx.db.db, { shops });
    env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
    app = await startTestApp(ctx.db);
    client = clientOn(new Wire(app.baseUrl), user);
    dir = mkdtempSync(path.join(tmpdir(), 'pos-read-parquet-'));
    duck = await DuckDBInstance.create(':memory:');
  });
  afterAll(async () => {
    duck?.closeSync();
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const exportParquet = (resource: string, out: string, extra: string[] = []) =>
    posRead(
      new Wire(app.baseUrl),
      ['export', resource, '--format', 'parquet', '--out', out, ...RANGE, ...extra],
      { env },
    );

  /** Every record of the API whose business date is in the range (the lists read by time). */
  async function apiRecords(
    resource: 'sales' | 'payments' | 'cashMovements',
  ): Promise<ApiRecord[]> {
    const records: ApiRecord[] = [];
    const list = client[resource].list({ from: addDays(FROM, -1), to: addDays(TO, 1) });
    for await (const page of list.pages()) records.push(...(page.data as ApiRecord[]));
    const dateOf = (r: ApiRecord) =>
      (r.businessDate as string | undefined) ??
      ((r.soldAt ?? r.paidAt ?? r.movedAt) as string).slice(0, 10);
    return records.filter((r) => dateOf(r) >= FROM && dateOf(r) < TO);
  }

  async function readBack(out: string, table: string, orderBy: string) {
    const columns = PARQUET_TABLES[table];
    const connection = await duck.connect();
    try {
      const glob = path.join(out, table, '**', '*.parquet');
      const select = columns.map((c) => `${asApiText(c)} AS "${c.field}"`).join(', ');
      const reader = await connection.runAndReadAll(
        `SELECT ${select}, shop, CAST(business_date AS VARCHAR) AS partition_date
           FROM read_parquet('${glob}', hive_partitioning = true, hive_types_autocast = false)
          ORDER BY ${orderBy}`,
      );
      const types = await connection.runAndReadAll(
        `DESCRIBE SELECT * FROM read_parquet('${glob}', hive_partitioning = true)`,
      );
      return {
        rows: reader.getRowObjectsJson() as Array<Record<string, string | null>>,
        types: Object.fromEntries(
          (types.getRowObjectsJson() as Array<{ column_name: string; column_type: string }>).map(
            (t) => [t.column_name, t.column_type],
          ),
        ),
      };
    } finally {
      connection.closeSync();
    }
  }

  it('should write exactly the API sales, typed, one partition per shop and business day, lines as their own table', async () => {
    const out = path.join(dir, 'sales-exact');
    const result = await exportParquet('sales', out);
    expect(result.stderr).toMatch(/ written, 0 unchanged, 0 removed\n$/);
    expect(result.code).toBe(0);

    const sales = (await apiRecords('sales')).sort((a, b) => Number(a.id) - Number(b.id));
    expect(sales.length).toBeGreaterThan(20);
    const { rows, types } = await readBack(out, 'sales', 'CAST(id AS BIGINT)');
    const columns = PARQUET_TABLES.sales;
    expect(rows.map((r) => Object.fromEntries(columns.map((c) => [c.field, r[c.field]])))).toEqual(
      expectedRows(columns, sales),
    );
    // Each row sits in the partition of its shop and business date.
    for (const row of rows) {
      expect([row.shop, row.partition_date]).toEqual([row.shopCode, row.businessDate]);
    }
    expect(types).toMatchObject({
      id: 'BIGINT',
      totalGross: 'DECIMAL(15,2)',
      businessDate: 'DATE',
      soldAt: 'TIMESTAMP',
      customerCode: 'VARCHAR',
    });

    const lines = sales.flatMap((s) =>
      (s.lines as ApiRecord[]).map((line) => ({ saleId: s.id, ...line })),
    );
    const back = await readBack(out, 'sale_lines', 'CAST(saleId AS BIGINT), lineNo');
    const lineColumns = PARQUET_TABLES.sale_lines;
    expect(
      back.rows.map((r) => Object.fromEntries(lineColumns.map((c) => [c.field, r[c.field]]))),
    ).toEqual(expectedRows(lineColumns, lines));
    expect(back.types).toMatchObject({
      quantity: 'DECIMAL(15,4)',
      taxRate: 'DECIMAL(5,2)',
      lineNo: 'INTEGER',
    });
  });

  it('should write exactly the API payments and cash movements', async () => {
    for (const [resource, key, table] of [
      ['payments', 'payments', 'payments'],
      ['cash-movements', 'cashMovements', 'cash_movements'],
    ] as const) {
      const out = path.join(dir, `exact-${table}`);
      expect((await exportParquet(resource, out)).code).toBe(0);
      const records = (await apiRecords(key)).sort((a, b) => Number(a.id) - Number(b.id));
      expect(records.length).toBeGreaterThan(10);
      const { rows, types } = await readBack(out, table, 'CAST(id AS BIGINT)');
      const columns = PARQUET_TABLES[table];
      expect(
        rows.map((r) => Object.fromEntries(columns.map((c) => [c.field, r[c.field]]))),
      ).toEqual(expectedRows(columns, records));
      expect(types).toMatchObject({ amount: 'DECIMAL(15,2)' });
    }
  });

  it("should put beside each partition the count and checksum the server's digest gives that day", async () => {
    const out = path.join(dir, 'sales-digest');
    expect((await exportParquet('sales', out)).code).toBe(0);
    let days = 0;
    for (const shop of shops) {
      const digest = await client.sales.digest({
        shopCode: shop,
        businessDateFrom: FROM,
        businessDateTo: TO,
      });
      for (const day of digest) {
        days += 1;
        const dir = partitionDir(out, 'sales', shop, day.date);
        // A day another test emptied (jest --randomize) has no partition, as it must.
        if (day.count === 0) {
          expect(() => statSync(dir)).toThrow();
          continue;
        }
        const summary = JSON.parse(
          readFileSync(path.join(dir, '_pos-read.json'), 'utf8'),
        ) as PartitionSummary;
        expect({ count: summary.count, checksum: summary.checksum }).toEqual({
          count: day.count,
          checksum: day.checksum,
        });
      }
    }
    expect(days).toBe(shops.length * 3);
  });

  it("should read each shop's business dates through the bulk read, 1,096 days a stream: the same partitions", async () => {
    const short = path.join(dir, 'sales-short');
    const long = path.join(dir, 'sales-long');
    expect((await exportParquet('sales', short)).code).toBe(0);
    const wire = new Wire(app.baseUrl);
    const long1247 = ['--from', '2024-01-01', '--to', '2027-06-01'];
    const exported = await posRead(
      wire,
      ['export', 'sales', '--format', 'parquet', '--out', long, ...long1247],
      { env },
    );
    expect(exported.code).toBe(0);
    const streams = wire
      .dataRequests()
      .map((r) => new URL(r.url))
      .filter((url) => url.searchParams.has('BusinessDateFrom'))
      .map((url) => {
        const q = url.searchParams;
        return `${url.pathname} ${q.get('ShopCode')} ${q.get('BusinessDateFrom')}..${q.get('BusinessDateTo')}`;
      });
    expect(streams.sort()).toEqual(
      shops
        .flatMap((shop) => [
          `/api/v1.0/sales/bulk ${shop} 2024-01-01..2027-01-01`,
          `/api/v1.0/sales/bulk ${shop} 2027-01-01..2027-06-01`,
        ])
        .sort(),
    );
    let partitions = 0;
    for (const shop of shops) {
      for (let date = FROM; date < TO; date = addDays(date, 1)) {
        // A day another test emptied (jest --randomize) has no partition in either.
        const summary = (root: string) => {
          const file = path.join(partitionDir(root, 'sales', shop, date), '_pos-read.json');
          if (!existsSync(file)) return null;
          const { count, checksum } = JSON.parse(readFileSync(file, 'utf8')) as PartitionSummary;
          return { count, checksum };
        };
        expect(summary(long)).toEqual(summary(short));
        if (summary(short)) partitions += 1;
      }
    }
    expect(partitions).toBeGreaterThan(shops.length);
  });

  it('should rewrite only the changed partition on a re-export, and remove a partition left with no record', async () => {
    const out = path.join(dir, 'sales-again');
    expect((await exportParquet('sales', out)).code).toBe(0);
    const files = () => {
      const found: Record<string, { ino: number; mtimeMs: number }> = {};
      for (const table of ['sales', 'sale_lines'] as const) {
        for (const shop of shops) {
          for (let date = FROM; date < TO; date = addDays(date, 1)) {
            const file = path.join(partitionDir(out, table, shop, date), 'part-0.parquet');
            const { ino, mtimeMs } = statSync(file);
            found[`${table}/${shop}/${date}`] = { ino, mtimeMs };
          }
        }
      }
      return found;
    };
    const before = files();
    const [sale] = await ctx.db.db.query<Array<{ id: string }>>(
      `SELECT CAST(id AS CHAR) AS id FROM pos_sales WHERE shop_code = ? AND business_date = ? ORDER BY id LIMIT 1`,
      [shops[1], '2026-03-11'],
    );
    await ctx.db.db.query('UPDATE pos_sales SET customer_code = ? WHERE id = ?', [
      'PARQUET-1',
      sale.id,
    ]);
    // A shop the token does not have: outside the export, never touched.
    const foreign = partitionDir(out, 'sales', 'GONE', '2026-03-11');
    mkdirSync(foreign, { recursive: true });
    writeFileSync(path.join(foreign, 'part-0.parquet'), 'not ours');

    const again = await exportParquet('sales', out);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/ in 6 partitions of .*: 1 written, 5 unchanged, 0 removed\n$/);
    const after = files();
    const changed = Object.keys(before).filter(
      (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
    );
    expect(changed.sort()).toEqual([
      `sale_lines/${shops[1]}/2026-03-11`,
      `sales/${shops[1]}/2026-03-11`,
    ]);
    // A shop outside the export is not touched.
    expect(readFileSync(path.join(foreign, 'part-0.parquet'), 'utf8')).toBe('not ours');

    // Every sale of one shop's last day deleted: that partition, and its lines', are removed.
    const day = [shops[0], '2026-03-12'];
    const ofDay = 'SELECT id FROM pos_sales WHERE shop_code = ? AND business_date = ?';
    await ctx.db.db.query(`DELETE FROM pos_sale_lines WHERE sale_id IN (${ofDay})`, day);
    await ctx.db.db.query(`DELETE FROM pos_payments WHERE sale_id IN (${ofDay})`, day);
    await ctx.db.db.query('DELETE FROM pos_sales WHERE shop_code = ? AND business_date = ?', day);
    const third = await exportParquet('sales', out);
    expect(third.code).toBe(0);
    expect(third.stderr).toMatch(/: 0 written, 5 unchanged, 1 removed\n$/);
    expect(() => statSync(partitionDir(out, 'sales', shops[0], '2026-03-12'))).toThrow();
    expect(() => statSync(partitionDir(out, 'sale_lines', shops[0], '2026-03-12'))).toThrow();
  });

  it('should write 0600 files in 0700 folders', async () => {
    const out = path.join(dir, 'modes');
    expect((await exportParquet('payments', out, ['--shop', shops[0]])).code).toBe(0);
    const partition = partitionDir(out, 'payments', shops[0], FROM);
    expect(statSync(partition).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(partition, 'part-0.parquet')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(partition, '_pos-read.json')).mode & 0o777).toBe(0o600);
  });

  it('should refuse what a Parquet export cannot do, before reading anything', async () => {
    const wire = new Wire(app.baseUrl);
    const run = (args: string[]) =>
      posRead(wire, ['export', 'sales', '--format', 'parquet', ...args], { env });
    const out = path.join(dir, 'refused');
    const cases: Array<[string[], number, RegExp]> = [
      [RANGE, 2, /--format parquet needs --out DIR/],
      [['--out', out, '--from', FROM], 2, /--to is required/],
      [['--out', out, '--from', '2026-03-10T06:00', '--to', TO], 2, /business dates/],
      [['--out', out, '--from', TO, '--to', FROM], 2, /--from must be before --to/],
      [['--out', out, ...RANGE, '--resume'], 2, /--resume is not for --format parquet/],
      [['--out', out, ...RANGE, '--shop', 'NOPE'], 10, /NOPE/],
    ];
    for (const [args, code, message] of cases) {
      const result = await run(args);
      expect({ args, code: result.code }).toEqual({ args, code });
      expect(result.stderr).toMatch(message);
    }
    expect(() => statSync(out)).toThrow();
  });
});
