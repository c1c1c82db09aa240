import { mkdir, open, readFile, rename } from 'node:fs/promises';
import * as path from 'node:path';
import { ApiError } from '../errors.js';
import { type Json, dayChecksum } from '../mirror/jcs.js';
import { loadOptional } from '../mirror/sqlite-driver.js';
import { PRIVATE_FILE_MODE, replacePrivateFile } from '../private-file.js';
import {
  columnsOf,
  PARQUET_TABLES,
  type ParquetColumn,
  parquetValues,
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
      data: parquetValues(
        c,
        records.map((r) => r[c.field]),
      ),
    })),
    schema: [{ name: 'root', num_children: columns.length }, ...columns.map(schemaElement)],
    createdBy: 'pos-read (@pos-read-api/client)',
  });
  return new Uint8Array(buffer);
}

/** Writes `bytes` to a new file (0600), flushed to disk. */
async function writeNewFile(file: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(file, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function readSummary(dir: string): Promise<PartitionSummary | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dir, PARTITION_FILE), 'utf8')) as PartitionSummary;
  } catch {
    return undefined;
  }
}

/** A partition's records in ascending numeric id order (the checksum's), each id read once. */
function byId(records: ApiRecord[]): ApiRecord[] {
  const keyed = records.map((record) => ({ id: BigInt(String(record.id)), record }));
  keyed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return keyed.map((k) => k.record);
}

/** One partition to write: its records spooled in a file, one bulk read's record line each. */
export interface PartitionJob {
  table: string;
  out: string;
  shop: string;
  date: string;
  /** `{"type":"record","record":{…}}` lines, as the bulk read sent them. */
  spoolFile: string;
  /** The spool file's length when the job was given: the records it covers, whole lines. */
  bytes: number;
  /** Where its files are staged until the export commits it: `<stage>.parquet` and so on. */
  stage: string;
}

/** A partition made ready: its summary, and its files staged unless they are as they were. */
export interface StagedPartition {
  summary: PartitionSummary;
  /** False: the partition on disk already holds these records, nothing to commit. */
  changed: boolean;
}

const stagedFile = (stage: string, table: string) => `${stage}.${table}.parquet`;

/**
 * Makes one partition ready from its spool file: the records in id order as one Parquet file
 * (sales also as their lines' table) staged beside the spool, and the count and checksum that
 * the commit writes beside it. A partition whose summary on disk already says these records is
 * not staged (`changed` false). Nothing under the export's folder changes: `commitPartition`
 * does, once the whole export has arrived.
 */
export async function stagePartition(job: PartitionJob): Promise<StagedPartition> {
  const { table, out, shop, date } = job;
  const writer = await loadParquetWriter();
  const spool = await open(job.spoolFile, 'r');
  const bytes = Buffer.alloc(job.bytes);
  try {
    await spool.read(bytes, 0, job.bytes, 0);
  } finally {
    await spool.close();
  }
  const records = byId(
    bytes
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { record: ApiRecord }).record),
  );
  const summary: PartitionSummary = {
    table,
    shop,
    businessDate: date,
    count: records.length,
    checksum: dayChecksum(records as Json[]),
  };
  const isSales = table === 'sales';
  const lines = isSales
    ? records.flatMap((sale) =>
        ((sale.lines ?? []) as ApiRecord[]).map((line) => ({ saleId: sale.id, ...line })),
      )
    : [];
  if (isSales) summary.lines = lines.length;
  const before = await readSummary(partitionDir(out, table, shop, date));
  if (before && before.checksum === summary.checksum && before.count === summary.count) {
    return { summary, changed: false };
  }
  const columns = columnsOf(PARQUET_TABLES[table], records, isSales ? ['lines'] : []);
  await writeNewFile(stagedFile(job.stage, table), parquetBytes(writer, columns, records));
  if (isSales) {
    const lineColumns = columnsOf(PARQUET_TABLES.sale_lines, lines);
    await writeNewFile(
      stagedFile(job.stage, 'sale_lines'),
      parquetBytes(writer, lineColumns, lines),
    );
  }
  return { summary, changed: true };
}

/**
 * Puts a staged partition in its place under `out`: its files renamed over the partition's
 * (sales: its lines' partition too), then its summary, last, so that a partition whose summary
 * is current has its files written.
 */
export async function commitPartition(out: string, stage: string, staged: StagedPartition) {
  const { table, shop, businessDate } = staged.summary;
  const tables = table === 'sales' ? [table, 'sale_lines'] : [table];
  for (const name of tables) {
    const dir = partitionDir(out, name, shop, businessDate);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await rename(stagedFile(stage, name), path.join(dir, DATA_FILE));
  }
  await replacePrivateFile(
    path.join(partitionDir(out, table, shop, businessDate), PARTITION_FILE),
    JSON.stringify(staged.summary, null, 2) + '\n',
  );
}
