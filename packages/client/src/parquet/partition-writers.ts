/**
 * The partitions of a Parquet export made ready side by side (decision 43.2). Turning records
 * into Parquet is the client's own CPU work (parsing the spool, the checksum, the values, the
 * encoding), and each partition is independent: worker threads, one a core up to MAX_WRITERS,
 * each take the next partition when done with one, while the bulk read goes on. Memory holds
 * one partition a thread. Where the worker's compiled file is not beside this one (the ES module
 * build, and TypeScript run from source), the partitions are made ready here, one at a time.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors.js';
import { Serial } from '../mirror/store.js';
import { ParquetValueError } from './columns.js';
import type { PartitionAnswer } from './partition-worker.js';
import { type PartitionJob, type StagedPartition, stagePartition } from './partitions.js';

/** Threads at most: the partitions' work is CPU, and more threads than cores only take memory. */
const MAX_WRITERS = 4;

/** The worker's compiled file, where this build has one (the CommonJS build: `pos-read`). */
export function workerFile(): string | undefined {
  if (typeof __dirname !== 'string') return undefined;
  const file = path.join(__dirname, 'partition-worker.js');
  return existsSync(file) ? file : undefined;
}

/** A worker's error as the class it was thrown as, where the CLI tells them apart. */
function rebuilt({ name, message }: { name: string; message: string }): Error {
  if (name === 'ApiError') return new ApiError(message);
  if (name === 'ParquetValueError') return new ParquetValueError(message);
  return Object.assign(new Error(message), { name });
}

/** Sends `job` to `worker`; resolves with what it staged. */
function ask(worker: Worker, job: PartitionJob): Promise<StagedPartition> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (answer: PartitionAnswer) => {
      done();
      if ('error' in answer) reject(rebuilt(answer.error));
      else resolve(answer.staged);
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`a Parquet writer thread exited with code ${code}`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(job);
  });
}

interface Queued {
  job: PartitionJob;
  resolve(staged: StagedPartition): void;
  reject(error: unknown): void;
}

/**
 * Stages partitions (`stagePartition`) in up to `threads` worker threads (by default one a core,
 * up to MAX_WRITERS), started as the jobs come. `stage` resolves with the partition's outcome;
 * after the first failure nothing else starts, and every later `stage` rejects with it. `close`
 * stops the threads.
 */
export class PartitionWriters {
  private readonly file = workerFile();
  private readonly idle: Worker[] = [];
  private readonly workers: Worker[] = [];
  private readonly queue: Queued[] = [];
  private readonly inline = new Serial();
  private failed: { error: Error } | undefined;

  constructor(private readonly threads = Math.min(availableParallelism(), MAX_WRITERS)) {}

  stage(job: PartitionJob): Promise<StagedPartition> {
    if (this.failed) return Promise.reject(this.failed.error);
    if (!this.file || this.threads <= 1) {
      // One at a time in this thread, in the order given.
      return this.inline.run(() => this.check(stagePartition(job)));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.next();
    });
  }

  /** Throws the first failure, if a partition failed. */
  throwIfFailed(): void {
    if (this.failed) throw this.failed.error;
  }

  /** Stops the threads; a job under way is abandoned (its staged files are the caller's). */
  async close(): Promise<void> {
    this.failed ??= { error: new Error('the Parquet writers were closed') };
    for (const queued of this.queue.splice(0)) queued.reject(this.failed.error);
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private async check(staging: Promise<StagedPartition>): Promise<StagedPartition> {
    try {
      return await staging;
    } catch (error) {
      this.failed ??= { error: error instanceof Error ? error : new Error(String(error)) };
      throw error;
    }
  }

  /** Hands the next queued job to an idle thread, starting one while there are fewer than allowed. */
  private next(): void {
    if (this.queue.length === 0) return;
    if (this.idle.length === 0 && this.workers.length < this.threads) {
      const worker = new Worker(this.file as string);
      this.workers.push(worker);
      this.idle.push(worker);
    }
    const worker = this.idle.pop();
    if (!worker) return;
    const queued = this.queue.shift() as Queued;
    this.check(ask(worker, queued.job)).then(
      (staged) => {
        this.idle.push(worker);
        queued.resolve(staged);
        this.next();
      },
      (error: unknown) => {
        for (const waiting of [queued, ...this.queue.splice(0)]) waiting.reject(error);
      },
    );
  }
}
