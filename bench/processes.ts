import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../..');
const LOG_DIR = path.join(REPO_ROOT, 'dist-bench', 'logs');

export interface Started {
  name: string;
  pid: number;
  baseUrl: string;
  logFile: string;
  stop(): Promise<void>;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('port')),
      );
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the server answers HTTP at all (any status), or the process dies. */
async function waitForHttp(child: ChildProcess, url: string, logFile: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      await fetch(url);
      return;
    } catch {
      await sleep(250);
    }
  }
  const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  throw new Error(`${url} did not come up (exit ${child.exitCode}). Log ${logFile}:\n${tail}`);
}

/** Starts `node <script>` from the repository root with an environment of its own. */
export async function startNode(
  name: string,
  script: string,
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
): Promise<Started> {
  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = path.join(LOG_DIR, `${name}.log`);
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${baseUrl}/api/v1.0/sales`, logFile);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    pid: child.pid ?? 0,
    baseUrl,
    logFile,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status), or null when gone. */
export function residentMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return kb ? Number(kb[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's resident memory every few hundred ms, keeping the peak per phase. */
export class RssSampler {
  private phase = 'start-up';
  private readonly peaks = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 200,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  enter(phase: string): void {
    this.sample();
    this.phase = phase;
    this.sample();
  }

  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }

  /** Peak MB per phase, in the order the phases ran. */
  get peakByPhase(): ReadonlyMap<string, number> {
    return this.peaks;
  }

  get peak(): number {
    return Math.max(0, ...this.peaks.values());
  }

  private sample(): void {
    const mb = residentMb(this.pid);
    if (mb === null) return;
    this.peaks.set(this.phase, Math.max(mb, this.peaks.get(this.phase) ?? 0));
  }
}
