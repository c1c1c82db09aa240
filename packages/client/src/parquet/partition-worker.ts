/**
 * A worker thread of a Parquet export (partition-writers.ts): stages the partitions it is sent,
 * one at a time, and answers each with what it staged, or with the error that stopped it.
 */
import { parentPort } from 'node:worker_threads';
import { type PartitionJob, type StagedPartition, stagePartition } from './partitions.js';

/** A worker's answer to one job. */
export type PartitionAnswer =
  { staged: StagedPartition } | { error: { name: string; message: string } };

const port = parentPort;
port?.on('message', (job: PartitionJob) => {
  const answer = (value: PartitionAnswer) => port.postMessage(value);
  stagePartition(job).then(
    (staged) => answer({ staged }),
    (error: unknown) =>
      answer({
        error: {
          name: error instanceof Error ? error.name : 'Error',
          message: error instanceof Error ? error.message : String(error),
        },
      }),
  );
});
