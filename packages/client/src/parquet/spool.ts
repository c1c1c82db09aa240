import { appendFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { PRIVATE_FILE_MODE } from '../private-file.js';
import { PartitionWriters } from './partition-writers.js';
import {
  commitPartition,
  type PartitionJob,
  partitionDate,
  partitionDir,
  type PartitionTotals,
  type StagedPartition,
} from './partitions.js';

/** A record to spool: its shop and business date, and its line as the bulk read sent it. */
export interface SpooledRecord {
  shop: string;
  date: string;
  /** `{"type":"record","record":{…}}` and its newline, the bytes as they arrived. */
  line: Uint8Array;
}

/** Batches after a partition's last record before it is made ready, the read going on. */
const QUIET_BATCHES = 2;

/** A partition being spooled: its file, how much it holds, and its staging under way. */
interface Spooled {
  shop: string;
  date: string;
  file: string;
  /** The spool file's length: the records spooled so far, whole lines. */
  bytes: number;
  /** The number of the last batch that added to it. */
  lastBatch: number;
  /** The last staging asked, and the length of the spool file it covers. */
  staging?: { bytes: number; stage: string; staged: Promise<StagedPartition> };
}

/**
 * The records of one export, spooled to disk as they arrive, a file per (shop, business date),
 * each record the bulk read's line as it came (never encoded again); each partition made ready
 * as one Parquet file (sales also as their lines' table) with its count and checksum, by the
 * Parquet writers' threads (partition-writers.ts), and put in its place once the whole export
 * has arrived. The read is in time order, so a business date's records come together: once
 * QUIET_BATCHES batches went by without one, the partition is made ready while the read goes
 * on. A record that comes for it later anyway is spooled as every record is, and the partition
 * is made ready again at the end: the end puts in place only a partition made ready from all its
 * records. A partition whose records have not changed since the last export into the same folder
 * keeps its files as they were; one of the range that has no record any more is removed. A
 * failed export leaves every partition as it was. Memory holds one partition a thread.
 */
export class PartitionSpool {
  private readonly spooled = new Map<string, Spooled>();
  /** The partitions spooled since they were last given to the writers. */
  private readonly pending = new Set<Spooled>();
  private readonly writers: PartitionWriters;
  private batch = 0;
  private stages = 0;

  private constructor(
    private readonly table: string,
    private readonly out: string,
    private readonly spool: string,
    threads?: number,
  ) {
    this.writers = new PartitionWriters(threads);
  }

  /** A spool for `table`'s partitions under `out`; `threads`: the writers' (one a core). */
  static async open(table: string, out: string, threads?: number): Promise<PartitionSpool> {
    await mkdir(out, { recursive: true, mode: 0o700 });
    const spool = await mkdtemp(path.join(out, '.pos-read-spool-'));
    return new PartitionSpool(table, out, spool, threads);
  }

  /** Adds a batch's records of the range, each under its shop and business date. */
  async add(records: readonly SpooledRecord[]): Promise<void> {
    this.writers.throwIfFailed();
    this.batch += 1;
    const byKey = new Map<Spooled, Uint8Array[]>();
    for (const { shop, date, line } of records) {
      const key = JSON.stringify([shop, date]);
      let spooled = this.spooled.get(key);
      if (!spooled) {
        // Checked once a partition, before anything of it is written.
        partitionDate(date);
        const file = path.join(this.spool, `${this.spooled.size}.ndjson`);
        spooled = { shop, date, file, bytes: 0, lastBatch: this.batch };
        this.spooled.set(key, spooled);
      }
      const lines = byKey.get(spooled) ?? [];
      lines.push(line);
      byKey.set(spooled, lines);
    }
    for (const [spooled, lines] of byKey) {
      const bytes = Buffer.concat(lines);
      await appendFile(spooled.file, bytes, { mode: PRIVATE_FILE_MODE });
      spooled.bytes += bytes.length;
      spooled.lastBatch = this.batch;
      this.pending.add(spooled);
    }
    for (const spooled of this.pending) {
      if (spooled.lastBatch <= this.batch - QUIET_BATCHES) this.makeReady(spooled);
    }
  }

  /**
   * Makes ready every partition not made ready from all its records yet, puts each in its place,
   * and removes the partitions of `shops` from `from` to `to` (business dates, To exclusive)
   * that got no record.
   */
  async finish(shops: readonly string[], from: string, to: string): Promise<PartitionTotals> {
    const totals: PartitionTotals = { written: 0, unchanged: 0, removed: 0 };
    try {
      for (const spooled of this.spooled.values()) {
        if (spooled.staging?.bytes !== spooled.bytes) this.makeReady(spooled);
      }
      const ready = await Promise.all(
        [...this.spooled.values()].map(async (spooled) => {
          const { stage, staged } = spooled.staging as NonNullable<Spooled['staging']>;
          return { stage, staged: await staged };
        }),
      );
      for (const { stage, staged } of ready) {
        if (staged.changed) await commitPartition(this.out, stage, staged);
        totals[staged.changed ? 'written' : 'unchanged'] += 1;
      }
      const filled = new Set(
        [...this.spooled.values()].map((s) => partitionDir(this.out, this.table, s.shop, s.date)),
      );
      totals.removed = await this.removeEmpty(shops, from, to, filled);
      return totals;
    } finally {
      await this.writers.close();
      await rm(this.spool, { recursive: true, force: true });
    }
  }

  /** Cleans up after a failed export: the threads and the spool; the partitions are as they were. */
  async abandon(): Promise<void> {
    await this.writers.close();
    await rm(this.spool, { recursive: true, force: true });
  }

  /** Gives a partition, as spooled so far, to the writers. */
  private makeReady(spooled: Spooled): void {
    this.pending.delete(spooled);
    const stage = path.join(this.spool, `stage-${(this.stages += 1)}`);
    const job: PartitionJob = {
      table: this.table,
      out: this.out,
      shop: spooled.shop,
      date: spooled.date,
      spoolFile: spooled.file,
      bytes: spooled.bytes,
      stage,
    };
    const staged = this.writers.stage(job);
    // A failure is thrown by the next add or by finish; never left unhandled meanwhile.
    staged.catch(() => undefined);
    spooled.staging = { bytes: spooled.bytes, stage, staged };
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
