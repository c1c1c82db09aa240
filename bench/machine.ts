import { readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import { createConnection } from 'mysql2/promise';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  os: string;
  node: string;
  database: string;
  bufferPoolMb: number;
}

export async function describeMachine(databaseUrl: string): Promise<Machine> {
  const connection = await createConnection(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  try {
    const [rows] = await connection.query(
      'SELECT VERSION() AS version, @@innodb_buffer_pool_size AS pool',
    );
    const [{ version, pool }] = rows as Array<{ version: string; pool: string | number }>;
    return {
      cpus: os.availableParallelism(),
      cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
      memoryGb: os.totalmem() / 1024 ** 3,
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      node: process.version,
      database: `MariaDB/MySQL ${version}`,
      bufferPoolMb: Number(pool) / 1024 ** 2,
    };
  } finally {
    await connection.end();
  }
}

/** The three load averages of /proc/loadavg (what `uptime` prints). */
export function loadAverages(): [number, number, number] {
  const [a, b, c] = os.loadavg();
  return [a, b, c];
}

/** The pid of the local database server, when it runs on this machine (its CPU is ours). */
export function databaseServerPid(): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'mariadbd' || comm === 'mysqld') return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

function cpuJiffies(): { total: number; idle: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1);
  const values = fields.map(Number);
  return { total: values.reduce((s, v) => s + v, 0), idle: values[3] + values[4] };
}

export function processJiffies(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** CPU used between start and stop, in cores: all of it, by the benchmark's processes, by others. */
export interface CpuUse {
  busyCores: number;
  oursCores: number;
  othersCores: number;
}

/**
 * Accounts the machine's CPU over the run: the benchmark's own processes (runner, service,
 * baseline, database server) against everything else, so a busy machine shows in the report.
 */
export class CpuAccount {
  private readonly pids = new Set<number>();
  private readonly start = cpuJiffies();
  private readonly startOurs = new Map<number, number>();

  track(pid: number | null): void {
    if (pid === null || this.pids.has(pid)) return;
    this.pids.add(pid);
    this.startOurs.set(pid, processJiffies(pid));
  }

  /** Call before a tracked process exits, so its share is read while it is still there. */
  read(): CpuUse {
    const now = cpuJiffies();
    const total = now.total - this.start.total;
    if (total <= 0) return { busyCores: 0, oursCores: 0, othersCores: 0 };
    const cores = os.cpus().length;
    const busy = total - (now.idle - this.start.idle);
    let ours = 0;
    for (const pid of this.pids) ours += processJiffies(pid) - (this.startOurs.get(pid) ?? 0);
    const toCores = (jiffies: number) => (jiffies / total) * cores;
    return {
      busyCores: toCores(busy),
      oursCores: toCores(ours),
      othersCores: Math.max(0, toCores(busy - ours)),
    };
  }
}
