import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { PosReadClient } from '../packages/client/src/index';
import { run as posRead } from '../packages/client/src/cli/run';
import type { Dataset } from './bench-dataset';
import type { BenchOptions } from './bench-options';
import type { Started } from './processes';
import { PRODUCTION_RUNTIME } from './runtime';
import { type SharedSecrets, startService } from './targets';

/**
 * `--mirror`: the first mirror of one shop's year (`client.mirror`, one pass: the three feeds
 * into SQLite, then the 35-day window's digests) against `pos-read export` of the same shop's
 * three resources to NDJSON files, in the same run; then an idle `follow` for `followSeconds`,
 * counting its requests. Service only: what is compared is the client's work, not the server's.
 */
export interface MirrorBench {
  shop: string;
  exportRecords: number;
  exportSeconds: number;
  mirrorRecords: number;
  mirrorLines: number;
  mirrorSeconds: number;
  daysChecked: number;
  followSeconds: number;
  followRequests: number;
}

const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

async function exportShop(service: Started, dataset: Dataset, dir: string): Promise<number> {
  let records = 0;
  for (const resource of ['sales', 'payments', 'cash-movements']) {
    const out = path.join(dir, `${resource}.ndjson`);
    const stderr = new PassThrough();
    const code = await posRead(
      ['export', resource, '--shop', dataset.walkShop, '--out', out, '--base-url', service.baseUrl],
      {
        env: { POS_READ_USERNAME: dataset.user.username, POS_READ_PASSWORD: dataset.user.password },
        stdin: Readable.from([]),
        stdout: new PassThrough(),
        stderr,
      },
    );
    if (code !== 0) throw new Error(`pos-read export ${resource} exited ${code}`);
    records += readFileSync(out, 'utf8').split('\n').length - 1;
    rmSync(out);
  }
  return records;
}

export async function measureMirror(input: {
  service: Started;
  dataset: Dataset;
  followSeconds: number;
  say(line: string): void;
}): Promise<MirrorBench> {
  const { service, dataset, say } = input;
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-mirror-'));
  let requests = 0;
  const counting: typeof fetch = (request, init) => {
    requests++;
    return fetch(request, init);
  };
  const client = new PosReadClient({
    baseUrl: service.baseUrl,
    username: dataset.user.username,
    password: dataset.user.password,
    fetch: counting,
  });
  try {
    say(`pos-read export of ${dataset.walkShop}'s sales, payments and cash movements…`);
    let started = process.hrtime.bigint();
    const exportRecords = await exportShop(service, dataset, dir);
    const exportSeconds = seconds(started);
    say(`client.mirror of ${dataset.walkShop}, one pass…`);
    const into = path.join(dir, 'mirror.sqlite');
    started = process.hrtime.bigint();
    const pass = await client.mirror({ into, shops: [dataset.walkShop] });
    const mirrorSeconds = seconds(started);
    say(`An idle follow for ${input.followSeconds} s…`);
    const controller = new AbortController();
    const following = client
      .mirror({
        into,
        shops: [dataset.walkShop],
        follow: true,
        signal: controller.signal,
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    // The follow's own first pass (nothing to read) is left out: counted from 5 s on.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const before = requests;
    await new Promise((resolve) => setTimeout(resolve, input.followSeconds * 1000));
    const followRequests = requests - before;
    controller.abort();
    const failed = await following;
    if (failed)
      say(
        `The follow failed, its figure is not valid: ${failed instanceof Error ? failed.message : '?'}`,
      );
    const { sales, payments, cash_movements: movements, sale_lines: lines } = pass.rows;
    return {
      shop: dataset.walkShop,
      exportRecords,
      exportSeconds,
      mirrorRecords: sales + payments + movements,
      mirrorLines: lines,
      mirrorSeconds,
      daysChecked: pass.daysChecked,
      followSeconds: input.followSeconds,
      followRequests,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function mirrorTable(m: MirrorBench): string {
  const rate = (records: number, s: number) => Math.round(records / s).toLocaleString('en-US');
  return [
    '| What | Records | Seconds | Records/s |',
    '|---|---:|---:|---:|',
    `| \`pos-read export\` sales + payments + cash-movements of ${m.shop} (NDJSON files) | ${m.exportRecords.toLocaleString('en-US')} | ${m.exportSeconds.toFixed(1)} | ${rate(m.exportRecords, m.exportSeconds)} |`,
    `| \`client.mirror\` first pass of ${m.shop} (SQLite, ${m.mirrorLines.toLocaleString('en-US')} sale lines too, ${m.daysChecked} days checked) | ${m.mirrorRecords.toLocaleString('en-US')} | ${m.mirrorSeconds.toFixed(1)} | ${rate(m.mirrorRecords, m.mirrorSeconds)} |`,
    '',
    `Idle \`follow\` (nothing written, Wait 20 s, window reconciled every 300 s): ` +
      `${m.followRequests} requests in ${m.followSeconds} s, ` +
      `${((m.followRequests * 60) / m.followSeconds).toFixed(1)} a minute.`,
  ].join('\n');
}

/** `npm run bench -- --mirror`: the service alone, the client's mirror against its export. */
export async function runMirror(
  options: BenchOptions,
  dataset: Dataset,
  secrets: SharedSecrets,
  say: (line: string) => void,
): Promise<void> {
  const service = await startService(options.databaseUrl, secrets, PRODUCTION_RUNTIME);
  try {
    const result = await measureMirror({ service, dataset, followSeconds: 60, say });
    say(`Measured with \`${options.command}\`:\n`);
    say(mirrorTable(result));
  } finally {
    await service.stop();
  }
}
