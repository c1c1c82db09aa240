import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { ApiError } from '../errors.js';
import { type Json, dayChecksum } from '../mirror/jcs.js';
import { loadOptional } from '../mirror/sqlite-driver.js';
import { PRIVATE_FILE_MODE, replacePrivateFile } from '../private-file.js';
import {
  columnsOf,
  PARQUET_TABLES,
  type ParquetColumn,
  parquetValue,
  schemaElement,
} from './columns.js';

/** The file beside each partition's Parquet file: what it holds, to check it later. */
export const PARTITION_FILE = '_pos-read.json';
const DATA_FILE = 'part-0.parquet';

/** What a partition's `_pos-read.json` says. */
export interface PartitionSummary {
  table: string;
  shop: string;
  businessDate: string;
  /** Records in the partition (sales, not lines, for sales). */
  count: number;
  /** The digest rule of docs/sync.md over the records as the API gave them, in id order. */
  checksum: string;
  /** sales: the lines in the matching sale_lines partition. */
  lines?: number;
}

type ApiRecord = Record<string, unknown>;

/** What an export did to the partitions of its range. */
export interface PartitionTotals {
  written: number;
  unchanged: number;
  removed: number;
}

/** A Hive partition value: the text itself, percent-encoded where a path would read it otherwise. */
export function partitionValue(value: string): string {
  const encoded = encodeURIComponent(value);
  return encoded === '.' || encoded === '..' ? encoded.replace(/\./g, '%2E') : encoded;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A business date as a partition's name, checked: it comes from the server's data, and a value
 * such as `../x` must never name a folder outside --out (issue 54). A calendar date or an error.
 */
export function partitionDate(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (DATE.test(date) && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(date)) {
    return date;
  }
  throw new ApiError(
    `the service sent a business date that is not a date (${JSON.stringify(date.slice(0, 40))}): ` +
      'no partition is written for it',
  );
}

/** `DIR/<table>/shop=S/business_date=D`. */
export function partitionDir(out: string, table: string, shop: string, date: string): string {
  return path.join(
    out,
    table,
    `shop=${partitionValue(shop)}`,
    `business_date=${partitionDate(date)}`,
  );
}

interface HyparquetWriter {
  parquetWriteBuffer(options: {
    columnData: Array<{ name: string; data: unknown[] }>;
    schema: unknown[];
    createdBy?: string;
  }): ArrayBuffer;
}

/** hyparquet-writer, an optional dependency, loaded when a Parquet export starts. */
export async function loadParquetWriter(): Promise<HyparquetWriter> {
  const writer = await loadOptional<HyparquetWriter>('hyparquet-writer');
  if (!writer?.parquetWriteBuffer) {
    throw new ParquetSetupError(
      '--format parquet needs the package hyparquet-writer beside the client: npm install hyparquet-writer',
    );
  }
  return writer;
}

export class ParquetSetupError extends Error {
  override name = 'ParquetSetupError';
}

/** A Parquet file of `records` in `columns`, as bytes. */
function parquetBytes(
  writer: HyparquetWriter,
  columns: ParquetColumn[],
  records: readonly ApiRecord[],
): Uint8Array {
  const buffer = writer.parquetWriteBuffer({
    columnData: columns.map((c) => ({
      name: c.field,
      data: records.map((r) => parquetValue(c, r[c.field])),
    })),
    schema: [{ name: 'root', num_children: columns.length }, ...columns.map(schemaElement)],
    createdBy: 'pos-read (@pos-read-api/client)',
  });
  return new Uint8Array(buffer);
}

/** Writes `bytes` to `file` atomically (a 0600 temporary file renamed over it). */
async function replaceFile(file: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${file}.${randomBytes(12).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

async function readSummary(dir: string): Promise<PartitionSummary | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dir, PARTITION_FILE), 'utf8')) as PartitionSummary;
  } catch {
    return undefined;
  }
}

const byId = (a: ApiRecord, b: ApiRecord): number => {
  const [x, y] = [BigInt(String(a.id)), BigInt(String(b.id))];
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * The records of one export, spooled to disk page by page per (shop, business date), then each
 * partition written as one Parquet file (sales also as their lines' table), with its count and
 * checksum beside it. A partition whose records have not changed since the last export into the
 * same folder keeps its files as they were; one of the range that has no record any more is
 * removed. Memory holds one partition at a time, never the export.
 */
export class PartitionSpool {
  private readonly keys = new Map<string, { shop: string; date: string; file: string }>();

  private constructor(
    private readonly table: string,
    private readonly out: string,
    private readonly spool: string,
  ) {}

  static async open(table: string, out: string): Promise<PartitionSpool> {
    await mkdir(out, { recursive: true, mode: 0o700 });
    return new PartitionSpool(table, out, await mkdtemp(path.join(out, '.pos-read-spool-')));
  }

  /** Adds a page's records of the range, each under its shop and business date. */
  async add(records: ReadonlyArray<{ record: ApiRecord; shop: string; date: string }>) {
    const byKey = new Map<string, string[]>();
    for (const { record, shop, date } of records) {
      partitionDate(date);
      const key = JSON.stringify([shop, date]);
      if (!this.keys.has(key)) {
        const file = path.join(this.spool, `${this.keys.size}.ndjson`);
        this.keys.set(key, { shop, date, file });
      }
      const lines = byKey.get(key) ?? [];
      lines.push(JSON.stringify(record));
      byKey.set(key, lines);
    }
    for (const [key, lines] of byKey) {
      const { file } = this.keys.get(key) as { file: string };
      await appendFile(file, lines.join('\n') + '\n', { mode: PRIVATE_FILE_MODE });
    }
  }

  /**
   * Writes every spooled partition, and removes the partitions of `shops` from `from` to `to`
   * (business dates, To exclusive) that got no record.
   */
  async finish(shops: readonly string[], from: string, to: string): Promise<PartitionTotals> {
    const writer = await loadParquetWriter();
    const totals: PartitionTotals = { written: 0, unchanged: 0, removed: 0 };
    try {
      const filled = new Set<string>();
      for (const { shop, date, file } of this.keys.values()) {
        filled.add(partitionDir(this.out, this.table, shop, date));
        const text = await readFile(file, 'utf8');
        const records = text
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as ApiRecord)
          .sort(byId);
        const written = await this.writePartition(writer, shop, date, records);
        totals[written ? 'written' : 'unchanged'] += 1;
      }
      totals.removed = await this.removeEmpty(shops, from, to, filled);
      return totals;
    } finally {
      await rm(this.spool, { recursive: true, force: true });
    }
  }

  /** Cleans up after a failed export: the spool only; the partitions are left as they were. */
  async abandon(): Promise<void> {
    await rm(this.spool, { recursive: true, force: true });
  }

  private async writePartition(
    writer: HyparquetWriter,
    shop: string,
    date: string,
    records: ApiRecord[],
  ): Promise<boolean> {
    const dir = partitionDir(this.out, this.table, shop, date);
    const summary: PartitionSummary = {
      table: this.table,
      shop,
      businessDate: date,
      count: records.length,
      checksum: dayChecksum(records as Json[]),
    };
    const isSales = this.table === 'sales';
    const lines = isSales
      ? records.flatMap((sale) =>
          ((sale.lines ?? []) as ApiRecord[]).map((line) => ({ saleId: sale.id, ...line })),
        )
      : [];
    if (isSales) summary.lines = lines.length;
    const before = await readSummary(dir);
    if (before && before.checksum === summary.checksum && before.count === summary.count) {
      return false;
    }
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const columns = columnsOf(PARQUET_TABLES[this.table], records, isSales ? ['lines'] : []);
    await replaceFile(path.join(dir, DATA_FILE), parquetBytes(writer, columns, records));
    if (isSales) {
      const linesDir = partitionDir(this.out, 'sale_lines', shop, date);
      await mkdir(linesDir, { recursive: true, mode: 0o700 });
      const lineColumns = columnsOf(PARQUET_TABLES.sale_lines, lines);
      await replaceFile(path.join(linesDir, DATA_FILE), parquetBytes(writer, lineColumns, lines));
    }
    // Last: a partition whose summary is current has its files written.
    await replacePrivateFile(
      path.join(dir, PARTITION_FILE),
      JSON.stringify(summary, null, 2) + '\n',
    );
    return true;
  }

  /** Partitions of the range on disk that this export found no record for: removed. */
  private async removeEmpty(
    shops: readonly string[],
    from: string,
    to: string,
    filled: Set<string>,
  ): Promise<number> {
    let removed = 0;
    for (const shop of shops) {
      const shopDir = path.dirname(partitionDir(this.out, this.table, shop, from));
      let entries: string[];
      try {
        entries = await readdir(shopDir);
      } catch {
        continue;
      }
      for (const entry of entries) {
        const date = /^business_date=(\d{4}-\d{2}-\d{2})$/.exec(entry)?.[1];
        if (!date || date < from || date >= to) continue;
        const dir = path.join(shopDir, entry);
        if (filled.has(dir)) continue;
        await rm(dir, { recursive: true, force: true });
        if (this.table === 'sales') {
          await rm(partitionDir(this.out, 'sale_lines', shop, date), {
            recursive: true,
            force: true,
          });
        }
        removed += 1;
      }
    }
    return removed;
  }
}
