import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ApiError } from '../../packages/client/src/errors';
import { partitionDir } from '../../packages/client/src/parquet/partitions';
import { PartitionSpool } from '../../packages/client/src/parquet/spool';

const recordLine = (record: object) =>
  Buffer.from(`${JSON.stringify({ type: 'record', record })}\n`);

/** Issue 54, item 3: a partition's name comes from server data, and never leaves --out. */
describe('Parquet partition names', () => {
  let root: string;
  let out: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'partition-names-'));
    out = path.join(root, 'out');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    '../x',
    '../../../../tmp/owned',
    '2026-03-1',
    '2026-02-30',
    '2026-13-01',
    '',
    '2026-03-10/..',
  ])('should refuse a business date %p that is not a date, writing nothing', async (date) => {
    expect(() => partitionDir(out, 'sales', 'SHOP001', date)).toThrow(ApiError);
    const spool = await PartitionSpool.open('sales', out);
    await expect(
      spool.add([{ shop: 'SHOP001', date, line: recordLine({ id: '1', businessDate: date }) }]),
    ).rejects.toThrow(/the service sent a business date that is not a date/);
    expect(readdirSync(root)).toEqual(['out']);
    expect(readdirSync(out).filter((f) => !f.startsWith('.pos-read-spool-'))).toEqual([]);
  });

  it('should name a real date, leap days included, inside --out', () => {
    for (const date of ['2026-03-10', '2024-02-29', '2026-12-31']) {
      const dir = partitionDir(out, 'sales', 'SHOP001', date);
      expect(dir).toBe(path.join(out, 'sales', 'shop=SHOP001', `business_date=${date}`));
    }
  });
});
