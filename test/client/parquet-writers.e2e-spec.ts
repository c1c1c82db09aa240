import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { builtClient } from '../readme/built-client';
import { workerFile as sourceWorkerFile } from '../../packages/client/src/parquet/partition-writers';
import type * as Writers from '../../packages/client/src/parquet/partition-writers';
import type * as Columns from '../../packages/client/src/parquet/columns';
import type * as Spool from '../../packages/client/src/parquet/spool';
import type { SpooledRecord } from '../../packages/client/src/parquet/spool';

/**
 * Decision 43.2: a Parquet export makes its partitions ready in worker threads while the read
 * goes on. The threads run the built CommonJS client (what `pos-read` runs), so these specs load
 * it from dist/; the TypeScript source, as the other specs run it, makes them ready in-thread.
 */
const dist = path.join(builtClient(), 'dist/cjs/parquet');
const load = <T>(file: string) => require(path.join(dist, file)) as T; // eslint-disable-line @typescript-eslint/no-require-imports
const { workerFile } = load<typeof Writers>('partition-writers.js');
const { PartitionSpool } = load<typeof Spool>('spool.js');
const { ParquetValueError } = load<typeof Columns>('columns.js');

const DATES = Array.from({ length: 8 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`);
const PER_DATE = 600;

function payment(
  id: number,
  date: string,
  amount = `${id % 97}.${String(id % 100).padStart(2, '0')}`,
) {
  return {
    id: String(id),
    saleId: String(100_000 + id),
    shopCode: 'SHOP001',
    registerCode: 'R1',
    paidAt: `${date}T10:00:00`,
    paidAtUtc: `${date}T09:00:00Z`,
    businessDate: date,
    method: 'CASH',
    amount,
    currency: 'EUR',
    cardBrand: null,
    reference: null,
  };
}

const spooled = (record: ReturnType<typeof payment>): SpooledRecord => ({
  shop: 'SHOP001',
  date: record.businessDate,
  line: Buffer.from(`${JSON.stringify({ type: 'record', record })}\n`),
});

/**
 * The batches of a read in time order, 200 records a batch, each date's ids descending (the
 * writer sorts them), and one record of the first date late: after the last date's, so after
 * its partition was made ready. `bad`: a date with a value that does not fit.
 */
function batches(bad?: string): SpooledRecord[][] {
  const records = DATES.flatMap((date, d) =>
    Array.from({ length: PER_DATE }, (_, i) =>
      payment(d * 1_000 + PER_DATE - i, date, date === bad && i === 7 ? '1e3' : undefined),
    ),
  );
  records.push(payment(999, DATES[0]));
  const out: SpooledRecord[][] = [];
  for (let at = 0; at < records.length; at += 200)
    out.push(records.slice(at, at + 200).map(spooled));
  return out;
}

/** As `pos-read export` does: the batches, then finish; a failure abandons the spool. */
async function exportInto(spool: Spool.PartitionSpool, bad?: string) {
  try {
    for (const batch of batches(bad)) await spool.add(batch);
    return await spool.finish(['SHOP001'], DATES[0], '2026-04-01');
  } catch (error) {
    await spool.abandon();
    throw error;
  }
}

/** Every file under `dir`, by its path inside it. */
function files(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    found[path.relative(dir, file)] = readFileSync(file).toString('base64');
  }
  return found;
}

const summaryOf = (all: Record<string, string>, date: string) =>
  JSON.parse(
    Buffer.from(
      all[`payments/shop=SHOP001/business_date=${date}/_pos-read.json`],
      'base64',
    ).toString(),
  ) as { count: number; checksum: string };

describe('Parquet partitions made ready in worker threads (built client)', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(path.join(tmpdir(), 'parquet-writers-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('should find its worker beside the built module, and none beside the TypeScript source', () => {
    expect(workerFile()).toBe(path.join(dist, 'partition-worker.js'));
    expect(sourceWorkerFile()).toBeUndefined();
  });

  it('should write, in two threads, the very files one thread writes, the late record included', async () => {
    const one = await exportInto(await PartitionSpool.open('payments', path.join(root, 'one'), 1));
    const two = await exportInto(await PartitionSpool.open('payments', path.join(root, 'two'), 2));
    expect(two).toEqual({ written: DATES.length, unchanged: 0, removed: 0 });
    expect(one).toEqual(two);
    const [inOne, inTwo] = [files(path.join(root, 'one')), files(path.join(root, 'two'))];
    expect(Object.keys(inTwo)).toHaveLength(DATES.length * 2);
    expect(inTwo).toEqual(inOne);
    // The first date's partition was made ready before its late record came: made ready again.
    expect(summaryOf(inTwo, DATES[0]).count).toBe(PER_DATE + 1);
    expect(summaryOf(inTwo, DATES[1]).count).toBe(PER_DATE);
    expect(readdirSync(path.join(root, 'two')).sort()).toEqual(['payments']);
  });

  it('should keep unchanged partitions as they were when exported again', async () => {
    const out = path.join(root, 'out');
    await exportInto(await PartitionSpool.open('payments', out, 2));
    const again = await exportInto(await PartitionSpool.open('payments', out, 2));
    expect(again).toEqual({ written: 0, unchanged: DATES.length, removed: 0 });
  });

  it("should fail with the value's own error from a thread, and leave every partition as it was", async () => {
    const out = path.join(root, 'out');
    await exportInto(await PartitionSpool.open('payments', out, 2));
    const before = files(out);
    const failing = exportInto(await PartitionSpool.open('payments', out, 2), DATES[3]);
    await expect(failing).rejects.toBeInstanceOf(ParquetValueError);
    await expect(failing).rejects.toThrow(/amount "1e3": not a decimal/);
    // Nothing put in place, and the spool gone.
    expect(files(out)).toEqual(before);
  });
});
