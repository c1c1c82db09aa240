import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { Dataset } from './bench-dataset';
import { REPO_ROOT } from './processes';
import { rawStream } from './raw-stream';
import { PRODUCTION_RUNTIME } from './runtime';
import { type SharedSecrets, startService } from './targets';

/** Peak resident memory of a process so far (VmHWM of /proc/<pid>/status), MB. */
function peakMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0) / 1024;
}

const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

/** `pos-read …` in a process of its own (bench/client-child.ts): its peak RSS in MB. */
async function posReadChild(argv: string[], env: Record<string, string>): Promise<number> {
  const child = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'dist-bench/bench/client-child.js'), ...argv],
    {
      env: { PATH: process.env.PATH ?? '', ...PRODUCTION_RUNTIME, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`pos-read ${argv.join(' ')} exited ${code}: ${stderr}`);
  return Number(/peak-rss-kb (\d+)/.exec(stderr)?.[1] ?? 0) / 1024;
}

export interface RawFloor {
  records: number;
  seconds: number;
}

/** The floor: the walk shop's year streamed by mysql2 into an NDJSON file (bench/raw-stream.ts). */
export async function measureRawFloor(
  databaseUrl: string,
  dataset: Dataset,
  dir: string,
): Promise<RawFloor> {
  const file = path.join(dir, 'raw.ndjson');
  const started = process.hrtime.bigint();
  const records = await rawStream({
    databaseUrl,
    shop: dataset.walkShop,
    from: dataset.from,
    to: dataset.to,
    file,
  });
  const elapsed = seconds(started);
  rmSync(file, { force: true });
  return { records, seconds: elapsed };
}

export interface PeriodMemory {
  label: string;
  from: string;
  to: string;
  /** Peak RSS of a service started for this read alone, and of the pos-read process. */
  serviceMb: number;
  clientMb: number;
  seconds: number;
}

/**
 * Peak memory of the service and of the client for one bulk export of the walk shop's sales
 * (`pos-read export sales --from --to`, NDJSON), each period on a service of its own, so each
 * peak is that period's.
 */
export async function measurePeriodMemory(input: {
  databaseUrl: string;
  secrets: SharedSecrets;
  dataset: Dataset;
  dir: string;
  periods: Array<{ label: string; from: string; to: string }>;
}): Promise<PeriodMemory[]> {
  const { dataset } = input;
  const env = {
    POS_READ_USERNAME: dataset.user.username,
    POS_READ_PASSWORD: dataset.user.password,
  };
  const figures: PeriodMemory[] = [];
  for (const period of input.periods) {
    const service = await startService(input.databaseUrl, input.secrets, PRODUCTION_RUNTIME);
    try {
      const out = path.join(input.dir, `memory-${period.label}.ndjson`);
      const started = process.hrtime.bigint();
      const clientMb = await posReadChild(
        [
          'export',
          'sales',
          '--shop',
          dataset.walkShop,
          '--from',
          period.from,
          '--to',
          period.to,
          '--out',
          out,
          '--base-url',
          service.baseUrl,
        ],
        env,
      );
      const elapsed = seconds(started);
      figures.push({ ...period, serviceMb: peakMb(service.pid), clientMb, seconds: elapsed });
      rmSync(out, { force: true });
    } finally {
      await service.stop();
    }
  }
  return figures;
}

/** The memory table: each period's peaks, and the longest's against the shortest's. */
export function memoryTable(shop: string, figures: PeriodMemory[]): string[] {
  const first = figures[0];
  return [
    `| \`pos-read export sales --shop ${shop}\` (bulk read), period | Seconds | Service peak RSS, MB | Client peak RSS, MB |`,
    '|---|---:|---:|---:|',
    ...figures.map((f) => {
      const ratio = (mb: number, of: number) =>
        f === first ? '' : ` (${((mb / of - 1) * 100).toFixed(1)} %)`;
      return (
        `| ${f.label}: ${f.from} to ${f.to} | ${f.seconds.toFixed(1)} | ${f.serviceMb.toFixed(0)}${ratio(f.serviceMb, first.serviceMb)} | ` +
        `${f.clientMb.toFixed(0)}${ratio(f.clientMb, first.clientMb)} |`
      );
    }),
  ];
}
