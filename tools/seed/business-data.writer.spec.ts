import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { applyBackofficeSchema } from '../../src/database/backoffice-schema';
import { buildDataSourceOptions } from '../../src/database/data-source.options';
import { collectBusinessData } from './business-data.generator';
import { type SeedSummary, seedBusinessData } from './business-data.writer';
import { BATCH_KEYS, type BatchKey, TABLES } from './bulk-insert';

const OPTIONS = { seed: 11, shops: 2, days: 5, salesPerDay: 25, startDate: '2026-02-01' };

describe(seedBusinessData.name, () => {
  let dir: string;
  let dataSource: DataSource;

  const count = async (table: string): Promise<number> => {
    const [row] = await dataSource.query<{ n: number }[]>(`SELECT COUNT(*) AS n FROM ${table}`);
    return Number(row.n);
  };

  const expectCountsToMatch = async (summaries: SeedSummary[]): Promise<void> => {
    const total = (key: BatchKey) => summaries.reduce((sum, s) => sum + s[key], 0);
    expect(BATCH_KEYS.slice(0, 6).map((key) => TABLES[key].table)).toEqual([
      'bo_shops',
      'pos_registers',
      'pos_sales',
      'pos_sale_lines',
      'pos_payments',
      'pos_cash_movements',
    ]);
    for (const key of BATCH_KEYS) expect(await count(TABLES[key].table)).toBe(total(key));
  };

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'seed-writer-'));
    dataSource = new DataSource(buildDataSourceOptions({ dataDir: dir }));
    await dataSource.initialize();
    await applyBackofficeSchema(dataSource);
  });

  afterEach(async () => {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should write exactly the rows the summary counts, which are the generated ones', async () => {
    const summary = await seedBusinessData(dataSource, OPTIONS);
    const generated = collectBusinessData(OPTIONS);

    expect(summary.database).toBe('sqlite');
    expect(summary.shopCodes).toEqual(['SHOP001', 'SHOP002']);
    expect(summary.firstDate).toBe('2026-02-01');
    expect(summary.lastDate).toBe('2026-02-05');
    for (const key of BATCH_KEYS) expect(summary[key]).toBe(generated[key].length);
    expect(summary.totalRows).toBe(BATCH_KEYS.reduce((sum, key) => sum + summary[key], 0));
    await expectCountsToMatch([summary]);
  });

  it('should store rows as generated: text date-times with milliseconds, decimal amounts', async () => {
    await seedBusinessData(dataSource, OPTIONS);
    const first = collectBusinessData(OPTIONS).sales[0];
    const [row] = await dataSource.query<
      {
        id: number;
        ticket_number: string;
        sold_at: string;
        business_date: string;
        total_gross: number;
      }[]
    >('SELECT id, ticket_number, sold_at, business_date, total_gross FROM pos_sales WHERE id = 1');
    expect(String(row.id)).toBe(first.id);
    expect(row.ticket_number).toBe(first.ticket_number);
    expect(row.sold_at).toBe(first.sold_at);
    expect(row.business_date).toBe(first.business_date);
    expect(Number(row.total_gross).toFixed(2)).toBe(first.total_gross);
    const [{ violations }] = await dataSource.query<{ violations: number }[]>(
      'SELECT COUNT(*) AS violations FROM pragma_foreign_key_check',
    );
    expect(Number(violations)).toBe(0);
  });

  it('should append a second time after the first: ids, ticket numbers and dates continue', async () => {
    const first = await seedBusinessData(dataSource, OPTIONS);
    const second = await seedBusinessData(dataSource, {
      ...OPTIONS,
      shops: 3,
      startDate: undefined,
    });

    expect(second.firstIds).toEqual(first.nextIds);
    expect(second.firstDate).toBe('2026-02-06');
    expect(second.shops).toBe(1);
    expect(second.shopCodes).toEqual(['SHOP001', 'SHOP002', 'SHOP003']);
    await expectCountsToMatch([first, second]);

    const [ids] = await dataSource.query<{ lo: number; hi: number; n: number }[]>(
      'SELECT MIN(id) AS lo, MAX(id) AS hi, COUNT(*) AS n FROM pos_sales',
    );
    expect([Number(ids.lo), Number(ids.hi)]).toEqual([1, Number(ids.n)]);
    const [duplicates] = await dataSource.query<{ n: number }[]>(
      `SELECT COUNT(*) AS n FROM (SELECT shop_code, ticket_number FROM pos_sales
        GROUP BY shop_code, ticket_number HAVING COUNT(*) > 1)`,
    );
    expect(Number(duplicates.n)).toBe(0);
    const [orphans] = await dataSource.query<{ n: number }[]>(
      `SELECT COUNT(*) AS n FROM pos_sales r LEFT JOIN pos_sales o ON o.id = r.original_sale_id
        WHERE r.kind = 'RETURN' AND (o.id IS NULL OR o.shop_code <> r.shop_code)`,
    );
    expect(Number(orphans.n)).toBe(0);
  });

  it('should end yesterday (UTC) on an empty database without a start date, as the demo does (issue 46)', async () => {
    const summary = await seedBusinessData(dataSource, {
      ...OPTIONS,
      startDate: undefined,
      days: 60,
      salesPerDay: 1,
      now: new Date('2026-11-28T00:30:00+01:00'),
    });

    expect([summary.firstDate, summary.lastDate]).toEqual(['2026-09-28', '2026-11-26']);
    const [dates] = await dataSource.query<{ lo: string; hi: string }[]>(
      'SELECT MIN(business_date) AS lo, MAX(business_date) AS hi FROM pos_sales',
    );
    expect([dates.lo, dates.hi]).toEqual(['2026-09-28', '2026-11-26']);
  });

  it('should refuse invalid options before touching the database', async () => {
    await expect(seedBusinessData(dataSource, { ...OPTIONS, shops: 0 })).rejects.toThrow(
      RangeError,
    );
    await expect(count('pos_sales')).resolves.toBe(0);
  });

  it('should report progress once per business date', async () => {
    const dates: string[] = [];
    await seedBusinessData(dataSource, {
      ...OPTIONS,
      onProgress: (p) => dates.push(p.businessDate),
    });
    expect(dates).toEqual(['2026-02-01', '2026-02-02', '2026-02-03', '2026-02-04', '2026-02-05']);
  });

  it('should roll back and reject when a row cannot be written', async () => {
    await seedBusinessData(dataSource, OPTIONS);
    await expect(
      seedBusinessData(dataSource, { ...OPTIONS, firstIds: { sales: 1 } }),
    ).rejects.toThrow(/UNIQUE|constraint/i);
    await expect(count('pos_sales')).resolves.toBe(collectBusinessData(OPTIONS).sales.length);
  });
});
