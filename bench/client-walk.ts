import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PosReadClient } from '../packages/client/src/index';

/** One shop's period through the client package, from where the walk is asked to read it. */
export interface WalkSpec {
  baseUrl: string;
  username: string;
  password: string;
  shopCode: string;
  from: string;
  to: string;
  prefetch: boolean;
  /** The sales the period holds: a walk that reads another number fails. */
  expectedSales: number;
}

/** What one walk measured on its client's side. */
export interface Walked {
  pages: number;
  records: number;
  seconds: number;
  /** Median wait of a page's request for its answer's headers (the service, then the link), ms. */
  headersMs: number;
  /** CPU of the process the client ran in (HTTP, gunzip, JSON, and the link when it is there), ms a page. */
  clientCpuMs: number;
}

/**
 * The client asks for gzip alone, as the compression scenario's walk does; each request's wait
 * for its answer's headers (the service's time to answer plus the link's first bytes) goes into
 * `waits`, in ms.
 */
export function gzipFetch(waits: number[] = []): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('accept-encoding', 'gzip');
    const sent = performance.now();
    const response = await fetch(input, { ...init, headers });
    waits.push(performance.now() - sent);
    return response;
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Walks the spec's period page by page in this process (the sign-in is not timed). */
export async function walkPeriod(spec: WalkSpec): Promise<Walked> {
  const waits: number[] = [];
  const client = new PosReadClient({
    baseUrl: spec.baseUrl,
    username: spec.username,
    password: spec.password,
    fetch: gzipFetch(waits),
  });
  await client.token();
  waits.length = 0;
  const query = { shopCode: spec.shopCode, from: spec.from, to: spec.to, prefetch: spec.prefetch };
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let pages = 0;
  let records = 0;
  for await (const page of client.sales.list(query).pages()) {
    pages++;
    records += page.data.length;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  if (records !== spec.expectedSales) {
    throw new Error(`client walk read ${records} of ${spec.expectedSales} sales`);
  }
  return {
    pages,
    records,
    seconds,
    headersMs: median(waits),
    clientCpuMs: (used.user + used.system) / 1000 / pages,
  };
}

const SPEC_VARIABLE = 'BENCH_WALK_SPEC';

/**
 * The same walk in a process of its own at the machine's lowest CPU priority (`SCHED_IDLE`, or
 * `nice 19` where `chrt` is missing): the stand-in, on a host with no other, for a client that
 * parses on its own machine (decision 29.18). It still runs whenever a core is free; when none is,
 * it waits, and the walk shows it.
 */
export function walkPeriodAtIdlePriority(spec: WalkSpec): Promise<Walked> {
  const node = [process.execPath, __filename];
  const [command, ...args] = existsSync('/usr/bin/chrt')
    ? ['/usr/bin/chrt', '--idle', '0', ...node]
    : ['nice', '-n', '19', ...node];
  const child = spawn(command, args, {
    env: { ...process.env, [SPEC_VARIABLE]: JSON.stringify(spec) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as Walked);
      else
        reject(
          new Error(
            `the idle-priority walk exited ${code}: ${Buffer.concat(err).toString('utf8')}`,
          ),
        );
    });
  });
}

if (require.main === module) {
  walkPeriod(JSON.parse(process.env[SPEC_VARIABLE] ?? '') as WalkSpec).then(
    (walked) => process.stdout.write(JSON.stringify(walked)),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
