import { constants } from 'node:fs';
import { type FileHandle, lstat, open, readFile, rename, rm, stat } from 'node:fs/promises';
import type { PosReadClient } from '../client.js';
import { PRIVATE_FILE_MODE, replacePrivateFile } from '../private-file.js';
import { type CursorResource, cursorResourceOf } from '../resources.js';
import { SALE_LINES, TABLES, tableOf } from '../mirror/schema.js';
import { bulkPeriods } from '../mirror/history.js';
import { Serial } from '../mirror/store.js';
import { ApiError } from '../errors.js';
import { loadParquetWriter } from '../parquet/partitions.js';
import { PartitionSpool } from '../parquet/spool.js';
import type { ListQuery } from '../types.js';
import { type CsvStyle, type Format, RecordWriter } from './formats.js';
import { type Io, UsageError, write } from './io.js';
import { forOutput } from './terminal-text.js';
import { Progress } from './progress.js';

/** The resources an export reads: every one the mirror keeps with a feed (schema.ts, TABLES). */
export const EXPORTED_RESOURCES: readonly string[] = TABLES.map((t) => t.resource);
/** One of EXPORTED_RESOURCES (`sales`, `cash-movements`). */
export type ExportedResource = string;

/** The sale's fields each row of `--lines` starts with (its keys), then the line's. */
const SALE_KEYS = [
  'shopCode',
  'registerCode',
  'ticketNumber',
  'kind',
  'status',
  'businessDate',
  'soldAt',
  'currency',
];
const LINE_FIELDS = ['saleId', ...SALE_KEYS, ...SALE_LINES.map((c) => c.field)];

/** `--lines`: a page of sales as one row per sale line, each with its sale's keys. */
function linesOf(sales: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return sales.flatMap((sale) =>
    ((sale.lines ?? []) as Array<Record<string, unknown>>).map((line) => ({
      saleId: sale.id,
      ...Object.fromEntries(SALE_KEYS.map((key) => [key, sale[key]])),
      ...line,
    })),
  );
}

/** A resource's fields in the API's order (the mirror's columns, a sale's lines last). */
const fieldsOf = (resource: ExportedResource): string[] => {
  const table = tableOf(resource);
  return [...table.columns.map((c) => c.field), ...table.nested];
};

/**
 * Shops walked at once by an export without --shop (`--concurrency`). 1, one walk of every shop:
 * over the simulated 50 Mbit/s link, 2, 4 and 8 walks were no faster (docs/performance.md,
 * "pos-read export --concurrency"; decision 29.4).
 */
export const DEFAULT_EXPORT_CONCURRENCY = 1;
export const MAX_EXPORT_CONCURRENCY = 16;

export interface ExportOptions {
  resource: ExportedResource;
  query: ListQuery;
  format: Format;
  /** CSV for a spreadsheet (--csv-excel, --decimal-comma) and sales as lines (--lines). */
  style?: CsvStyle;
  out?: string;
  resume: boolean;
  /** Replace an existing --out file (refused without it, unless resuming it). */
  force?: boolean;
  progress: boolean;
  /**
   * Without a shop in the query: above 1, each shop of the token (GET /shops) is its own walk,
   * this many at once, their pages written as they come; 1, one walk of every shop in time order.
   */
  concurrency: number;
}

/** One shop's walk of a per-shop export: where it goes on (null: its first page), or done. */
interface ShopWalk {
  shop: string;
  cursor: string | null;
  done: boolean;
}

/** What --resume needs: the export it belongs to, where to go on, how long the file was then. */
interface ResumeState {
  resource: string;
  query: ListQuery;
  format: Format;
  style?: CsvStyle;
  /** One walk of the query: its next cursor. */
  nextCursor?: string;
  /** A per-shop export (--concurrency above 1 without --shop): each shop's walk. */
  shops?: ShopWalk[];
  /** An export through the bulk read: the period read and the checkpoint to go on after. */
  bulk?: BulkPosition;
  bytes: number;
}

/** Where an export through the bulk read stands: a period of it, after a checkpoint (or not). */
interface BulkPosition {
  from: string;
  to: string;
  cursor: string | null;
}

export const stateFileOf = (out: string): string => `${out}.pos-read-resume.json`;

async function loadState(file: string): Promise<ResumeState | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ResumeState;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The state replaced atomically, never through a planted link (replacePrivateFile). */
function saveState(file: string, state: ResumeState): Promise<void> {
  return replacePrivateFile(file, JSON.stringify(state) + '\n');
}

/** Where --out is written until it is complete: beside it, renamed over it at the end. */
export const partialFileOf = (out: string): string => `${out}.pos-read-partial`;

/** An opened --out: the file written, and what makes it the output once it is whole. */
export interface Output {
  file: FileHandle;
  /** The output is whole: the partial file is renamed over --out (a device: closed). */
  commit(): Promise<void>;
  /**
   * Closes it unfinished: the partial file is kept for --resume when `keep`, else removed; --out
   * is left as it was.
   */
  abandon(keep: boolean): Promise<void>;
}

const refuseLink = (out: string) =>
  new UsageError(
    `--out ${out} is a symbolic link: refused, as writing would replace the file it points to; ` +
      "give the file's own path",
    false,
  );

/** Opens `file` never through a symbolic link (ELOOP: refused as `out`'s link). */
async function openOwn(file: string, flags: number, out: string): Promise<FileHandle> {
  const { O_NOFOLLOW = 0 } = constants;
  try {
    return await open(file, flags | O_NOFOLLOW, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOOP') throw refuseLink(out);
    throw error;
  }
}

/**
 * The output of an export, a report or a close (issue 54). A file is written beside --out
 * (partialFileOf, created exclusively 0600, never through a link: a leftover or a link planted at
 * that name is removed first) and renamed over --out once whole, so --out is never truncated
 * through a planted link nor left half-written: until then it is as it was. --resume reopens the
 * partial file of the interrupted export (an export interrupted by an older pos-read wrote --out
 * itself: that file is moved aside first). A symbolic link at --out to a file is refused; a
 * device or a pipe (/dev/stdout, or a link to one) is written through, without truncation.
 */
export async function openOutput(out: string, resuming: boolean): Promise<Output> {
  const { O_RDWR, O_WRONLY, O_CREAT, O_EXCL } = constants;
  const existing = await lstat(out).catch((error: { code?: string }) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing && !existing.isFile()) {
    const device = await open(out, resuming ? O_RDWR : O_WRONLY).catch(() => undefined);
    if (device && !(await device.stat()).isFile()) {
      let isOpen = true;
      const close = async () => {
        if (isOpen) await device.close();
        isOpen = false;
      };
      return { file: device, commit: close, abandon: close };
    }
    await device?.close();
    if (existing.isSymbolicLink()) throw refuseLink(out);
    throw new UsageError(`--out ${out} is neither a file nor a device: refused`, false);
  }
  const partial = partialFileOf(out);
  let file: FileHandle;
  if (resuming) {
    const exists = await lstat(partial).then(
      () => true,
      () => false,
    );
    if (!exists && existing) await rename(out, partial);
    file = await openOwn(partial, O_RDWR, out);
  } else {
    await rm(partial, { force: true });
    file = await openOwn(partial, O_WRONLY | O_CREAT | O_EXCL, out);
  }
  if (!(await file.stat()).isFile()) {
    await file.close();
    throw new UsageError(`${partial} is not a file: refused`, false);
  }
  await file.chmod(PRIVATE_FILE_MODE);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await file.close();
  };
  return {
    file,
    commit: async () => {
      if (!closed) await file.sync();
      await close();
      await rename(partial, out);
    },
    abandon: async (keep) => {
      await close();
      if (!keep) await rm(partial, { force: true });
    },
  };
}

/** An existing regular file is not replaced without --force (a device or a pipe is written). */
async function refuseToReplace(out: string): Promise<void> {
  const existing = await stat(out).catch(() => undefined);
  if (existing?.isFile()) {
    throw new UsageError(
      `${out} exists: add --force to replace it, or give another --out (nothing was written)`,
      false,
    );
  }
}

/** The options an export's state file pins, as the command line names them. */
type Pinned = Pick<ResumeState, 'query' | 'format' | 'style'>;
const PINNED = [
  ['shop', (s: Pinned) => s.query.shopCode],
  ['from', (s: Pinned) => s.query.from],
  ['to', (s: Pinned) => s.query.to],
  ['limit', (s: Pinned) => s.query.limit],
  ['format', (s: Pinned) => s.format],
  ['csv-excel', (s: Pinned) => (s.style?.excel ? true : undefined)],
  ['decimal-comma', (s: Pinned) => (s.style?.decimalComma ? true : undefined)],
  ['lines', (s: Pinned) => (s.style?.lines ? true : undefined)],
] as const;

const optionText = (name: string, value: string | number | boolean | undefined): string =>
  value === undefined ? `no --${name}` : value === true ? `--${name}` : `--${name} ${value}`;

/** --resume of another export than the state file's: says which option differs, nothing else. */
function refuseAnotherExport(stateFile: string, previous: ResumeState, o: ExportOptions): void {
  const differences =
    previous.resource === o.resource
      ? PINNED.filter(([, of]) => of(previous) !== of(o)).map(
          ([name, of]) =>
            `${optionText(name, of(o))} here, ${optionText(name, of(previous))} there`,
        )
      : [`export ${o.resource} here, export ${previous.resource} there`];
  if (differences.length === 0) return;
  throw new UsageError(
    `--resume: ${stateFile} is the state of another export (${differences.join('; ')}). ` +
      'Repeat that export with its own options and --resume, or remove the state file to start over.',
    false,
  );
}

type Page = { data: Array<Record<string, unknown>>; nextCursor: string | null };

/** Where an export goes on after a page, as its state file keeps it (null: nothing to keep). */
type Position = Pick<ResumeState, 'nextCursor' | 'shops' | 'bulk'> | null;

/**
 * One shop's period, from `position` on, through the bulk read (docs/sync.md, "The bulk read"),
 * 1,096 days a stream: each batch handed to `output` with where the export goes on after it. A
 * batch that says the stream's earlier batches were corrupted (`rewound`) is preceded by
 * `rewind` to the output's length after the batch it names.
 */
async function streamBulk(
  resource: CursorResource<Record<string, unknown>>,
  shopCode: string,
  position: BulkPosition,
  end: string,
  signal: AbortSignal | undefined,
  output: {
    page(page: Page, position: Position): Promise<void>;
    length(): number;
    rewind(length: number): Promise<void>;
  },
): Promise<void> {
  for (let at: BulkPosition | null = position; at;) {
    const period: BulkPosition = at;
    const read = resource.bulk({ shopCode, ...period, cursor: period.cursor ?? undefined, signal });
    const lengths = new Map<string | null, number>([[null, output.length()]]);
    for await (const batch of read) {
      if (batch.rewound) await output.rewind(lengths.get(batch.rewound.after) ?? 0);
      const next = bulkPeriods(period.to, end)[0];
      const after: BulkPosition | null =
        batch.cursor !== null
          ? { ...period, cursor: batch.cursor }
          : next
            ? { ...next, cursor: null }
            : null;
      await output.page({ data: batch.records, nextCursor: null }, after && { bulk: after });
      if (batch.cursor !== null) lengths.set(batch.cursor, output.length());
      at = batch.cursor === null ? after : at;
    }
  }
}

/**
 * The shops' walks, `concurrency` at a time, each one page ahead (the client's prefetch); a page
 * is handed to `output` with the walks' positions once it is that walk's turn to write. The first
 * failure (or the caller's abort) stops every walk; the export fails with it once all have
 * stopped, so nothing is written after it.
 */
async function walkShops(
  resource: CursorResource<Record<string, unknown>>,
  query: ListQuery,
  walks: ShopWalk[],
  concurrency: number,
  signal: AbortSignal | undefined,
  output: (page: Page, position: Position) => Promise<void>,
): Promise<void> {
  const controller = new AbortController();
  const stop = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
  const waiting = walks.filter((walk) => !walk.done);
  // The export's writes, one at a time in the order the pages come.
  const serial = new Serial();
  let failed: { error: unknown } | undefined;
  const worker = async () => {
    try {
      for (let walk = waiting.shift(); walk && !failed; walk = waiting.shift()) {
        const shop = walk;
        const cursor = shop.cursor ?? undefined;
        const list = resource.list({ ...query, shopCode: shop.shop, cursor, signal: stop });
        for await (const page of list.pages()) {
          await serial.run(() => {
            if (failed) throw failed.error;
            shop.cursor = page.nextCursor;
            shop.done = page.nextCursor === null;
            return output(page, { shops: walks });
          });
        }
      }
    } catch (error) {
      failed ??= { error };
      controller.abort();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, waiting.length) }, worker));
  if (failed) throw failed.error;
}

/**
 * `pos-read export`: every record of the query, page by page, to a file or standard output.
 * With --out, after each page is written (and flushed) where the export goes on and the file's
 * length are saved beside it; --resume truncates the file to that length and goes on from there,
 * so an interrupted export ends with each record exactly once. The state file is removed when
 * the export is complete. Without --shop and with a concurrency above 1, each shop of the token
 * is a walk of its own, `concurrency` at once: each shop's records in time order, the shops'
 * pages interleaved as they arrive. --resume goes on the way the export started.
 */
export async function exportRecords(client: PosReadClient, io: Io, o: ExportOptions) {
  if (o.resume && !o.out) throw new UsageError('--resume needs --out FILE');
  const resource = cursorResourceOf<Record<string, unknown>>(client, tableOf(o.resource).property);
  const stateFile = o.out ? stateFileOf(o.out) : undefined;
  const previous = o.resume && stateFile ? await loadState(stateFile) : undefined;
  if (previous && stateFile) refuseAnotherExport(stateFile, previous, o);
  if (o.out && !previous && !o.force) await refuseToReplace(o.out);
  const output = o.out ? await openOutput(o.out, previous !== undefined) : undefined;
  const file = output?.file;
  const progress = new Progress(io, `export ${o.resource}`, o.progress);
  let saved = previous !== undefined;
  let whole = false;
  try {
    let bytes = 0;
    if (file && previous) {
      await file.truncate(previous.bytes);
      bytes = (await file.stat()).size;
    }
    const lines = o.style?.lines === true;
    const fields = lines ? LINE_FIELDS : fieldsOf(o.resource);
    let writer = new RecordWriter(o.format, !previous, fields, o.style);
    const exported = { resource: o.resource, query: o.query, format: o.format, style: o.style };
    const emit = async (text: string) => {
      if (file) {
        const buffer = Buffer.from(text, 'utf8');
        await file.write(buffer, 0, buffer.length, bytes);
        await file.sync();
        bytes += buffer.length;
      } else {
        await write(io.stdout, forOutput(io.stdout, text));
      }
    };
    const written = async (page: Page, position: Position) => {
      await emit(writer.page(lines ? linesOf(page.data) : page.data));
      if (file && position && stateFile) {
        await saveState(stateFile, { ...exported, ...position, bytes });
        saved = true;
      }
      progress.page(page.data.length);
    };
    const perShop = previous
      ? previous.shops !== undefined
      : o.query.shopCode === undefined && o.concurrency > 1;
    // One shop and a period: the bulk read (unless --limit asks for pages of a size).
    const { shopCode, from, to, limit } = o.query;
    const first = shopCode !== undefined && from && to ? bulkPeriods(from, to)[0] : undefined;
    const bulk = previous
      ? previous.bulk
      : first && limit === undefined
        ? { ...first, cursor: null }
        : undefined;
    if (bulk && shopCode !== undefined && to) {
      await streamBulk(resource, shopCode, bulk, to, io.signal, {
        page: written,
        length: () => bytes,
        rewind: async (length) => {
          if (!file) {
            throw new ApiError(
              `export ${o.resource}: the bulk read's end line did not match what was written to ` +
                'standard output; export again (to a file with --out, it is rewritten by itself)',
            );
          }
          await file.truncate(length);
          bytes = length;
          if (length === 0) writer = new RecordWriter(o.format, true, fields, o.style);
        },
      });
    } else if (perShop) {
      const walks =
        previous?.shops ??
        (await client.shops.list({ signal: io.signal })).map((shop) => ({
          shop: shop.code,
          cursor: null,
          done: false,
        }));
      await walkShops(resource, o.query, walks, o.concurrency, io.signal, written);
    } else {
      const list = resource.list({ ...o.query, cursor: previous?.nextCursor, signal: io.signal });
      for await (const page of list.pages()) {
        await written(page, page.nextCursor ? { nextCursor: page.nextCursor } : null);
      }
    }
    // No record at all: a CSV still says what it would hold (a header row), never 0 bytes.
    const end = writer.end();
    if (end) await emit(end);
    // Whole: --out becomes it at once, then the state that would resume it goes.
    await output?.commit();
    whole = true;
    if (stateFile) await rm(stateFile, { force: true });
    progress.done();
    return { ...progress.totals, resumed: previous !== undefined };
  } finally {
    // Unfinished: the partial file stays for --resume once a state names where it goes on.
    if (!whole) await output?.abandon(saved);
  }
}

/** A record's business date; a record the API gives none is dated by its wall-clock time. */
function dateOf(record: Record<string, unknown>, time: string): string {
  const { businessDate } = record;
  if (typeof businessDate === 'string') return businessDate;
  const at = record[time];
  return typeof at === 'string' ? at.slice(0, 10) : '';
}

export interface ParquetExportOptions {
  resource: ExportedResource;
  /** One shop (--shop), or every shop of the token. */
  shopCode?: string;
  /** Business dates, To exclusive. */
  from: string;
  to: string;
  out: string;
  progress: boolean;
}

/**
 * `pos-read export … --format parquet --out DIR`: the records of the business dates from `from`
 * to `to` (exclusive), one Parquet file per shop and business date in Hive layout
 * (`DIR/<table>/shop=S/business_date=D/part-0.parquet`), a sale's lines in the table sale_lines,
 * each partition's count and checksum beside it (parquet/partitions.ts). Read shop by shop
 * through the bulk read by business date (BusinessDateFrom/To), a stream for each of bulkPeriods.
 */
export async function exportParquet(client: PosReadClient, io: Io, o: ParquetExportOptions) {
  const time = tableOf(o.resource).dayField;
  const table = tableOf(o.resource).table;
  const resource = cursorResourceOf<Record<string, unknown>>(client, tableOf(o.resource).property);
  await loadParquetWriter();
  const shops =
    o.shopCode !== undefined
      ? [o.shopCode]
      : (await client.shops.list({ signal: io.signal })).map((shop) => shop.code);
  const spool = await PartitionSpool.open(table, o.out);
  const progress = new Progress(io, `export ${o.resource}`, o.progress);
  try {
    for (const shopCode of shops) {
      for (const period of bulkPeriods(o.from, o.to)) {
        const [from, to] = [period.from.slice(0, 10), period.to.slice(0, 10)];
        const query = { shopCode, businessDateFrom: from, businessDateTo: to };
        for await (const batch of resource.bulk({ ...query, signal: io.signal })) {
          // The spool has no way back: a corrupted stream (rare: TLS catches most) fails it.
          if (batch.rewound) {
            throw new ApiError(
              `export ${o.resource}: the bulk read's end line did not match what arrived for ` +
                `${shopCode}; export again`,
            );
          }
          const dated = batch.records.map((record, i) => ({
            shop: String(record.shopCode),
            date: dateOf(record, time),
            line: batch.lines[i],
          }));
          // The service gives exactly these dates; a record dated otherwise would be filed wrong.
          const kept = dated.filter(({ date }) => date >= from && date < to);
          await spool.add(kept);
          progress.page(kept.length);
        }
      }
    }
    const partitions = await spool.finish(shops, o.from, o.to);
    progress.done();
    return { ...progress.totals, partitions };
  } catch (error) {
    await spool.abandon();
    throw error;
  }
}
