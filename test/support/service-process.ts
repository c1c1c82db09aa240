import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { captureOutputOf } from './log-capture';
import { TEST_KEY_ID, TEST_PRIVATE_KEY } from './test-app';

const ROOT = path.join(__dirname, '../..');
const REGISTER = path.join(__dirname, 'swc-register.js');
const MAIN = path.join(ROOT, 'src/main.ts');

export interface ServiceProcess {
  child: ChildProcess;
  /** The public API's origin; throws until the service announced its port. */
  readonly baseUrl: string;
  /** The management listener's origin; throws until the service announced its port. */
  readonly managementUrl: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServiceOptions {
  /**
   * Run the build (`node dist/src/main.js`, as in production) instead of the TypeScript
   * sources (`npm start` without the build step). Needs an `npm run build` newer than src/.
   */
  built?: boolean;
  /**
   * The build's entry point under dist (default src/main.js; `npm start` runs
   * tools/seed/start-development.js, which fills the embedded demo first).
   */
  entry?: 'src/main.js' | 'tools/seed/start-development.js';
  /** How long start-up may take before spawnService gives up (ms). */
  startTimeoutMs?: number;
  /** The checkout whose build runs (default this one; the recipes' spec builds a copy). */
  root?: string;
}

/** Environment variables to set; undefined removes one of the defaults. */
export type ServiceEnv = Record<string, string | undefined>;

/** The kernel's ephemeral range: where `listen(0)` and every outgoing connection take ports. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low > 0 && high >= low) return [low, high];
  } catch {
    // Not Linux: the IANA range.
  }
  return [49152, 65535];
}

const handedOut = new Set<number>();

/**
 * A loopback port nothing listens on right now, for a process the spec starts later. It is
 * chosen outside the ephemeral range: a port `listen(0)` returned and then released is soon
 * taken by some outgoing connection (a database pool's, a fetch's) before the spec's process
 * binds it (EADDRINUSE, issue 47). A port the spec's own process binds is asked for with 0.
 */
export async function freePort(): Promise<number> {
  const [low, high] = ephemeralRange();
  const [from, to] = low > 20_000 ? [10_000, low - 1] : [high + 1, 65_535];
  for (;;) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (handedOut.has(port) || !(await portIsFree(port))) continue;
    handedOut.add(port);
    return port;
  }
}

/** A port is free when a listener can take it. */
export function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The ports a service started with PORT=0 and MANAGEMENT_PORT=0 announced in its start-up
 * output (JSON lines, or the development banner), once it wrote them.
 */
export function announcedPorts(output: string): { port?: number; managementPort?: number } {
  const api = /http:\/\/localhost:(\d+)\/api\/v1\.0/.exec(output);
  const management =
    /Health and metrics on port (\d+)/.exec(output) ??
    /http:\/\/localhost:(\d+)\/health\//.exec(output);
  return {
    port: api ? Number(api[1]) : undefined,
    managementPort: management ? Number(management[1]) : undefined,
  };
}

/** The newest modification time of the files under dir. */
export function newestMtimeMs(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory() ? newestMtimeMs(file) : statSync(file).mtimeMs;
    }),
  );
}

/** A build's entry point, refusing a missing or stale build (it would test old code). */
function builtEntry(entry: string, root: string): string {
  const file = path.join(root, 'dist', entry);
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build`);
  const sources = Math.max(
    newestMtimeMs(path.join(root, 'src')),
    newestMtimeMs(path.join(root, 'tools')),
  );
  if (statSync(file).mtimeMs < sources) {
    throw new Error(`${file} is older than src/ or tools/: run npm run build`);
  }
  return file;
}

/**
 * Starts the service in a child process, without waiting for it. Unless `env` names ports, it
 * listens on any free ones (PORT=0, MANAGEMENT_PORT=0) and the URLs come from its start-up
 * output: no port is chosen here and then raced for (issue 47).
 */
export function startServiceProcess(env: ServiceEnv, options: ServiceOptions = {}): ServiceProcess {
  const merged: ServiceEnv = {
    PATH: process.env.PATH,
    APP_ENV: 'development',
    DEMO_SEED: 'false',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    MANAGEMENT_HOST: '127.0.0.1',
    MANAGEMENT_PORT: '0',
    JWT_PRIVATE_KEY: TEST_PRIVATE_KEY,
    JWT_KEY_ID: TEST_KEY_ID,
    ...env,
  };
  const args = options.built
    ? [builtEntry(options.entry ?? 'src/main.js', options.root ?? ROOT)]
    : ['-r', REGISTER, MAIN];
  const child = spawn(process.execPath, args, {
    cwd: options.root ?? ROOT,
    env: Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Its log is checked for secrets with the spec's other logs (no-secrets-in-logs.ts).
  captureOutputOf(() => output);
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const origin = (which: 'port' | 'managementPort', configured: string | undefined): string => {
    const port = configured !== '0' ? configured : announcedPorts(output)[which];
    if (port === undefined) throw new Error(`the service has not announced its ${which} yet`);
    return `http://127.0.0.1:${port}`;
  };
  return {
    child,
    get baseUrl() {
      return origin('port', merged.PORT);
    },
    get managementUrl() {
      return origin('managementPort', merged.MANAGEMENT_PORT);
    },
    output: () => output,
    exited,
  };
}

/** Runs the service in a child process, as `npm start` would, and waits until it is live. */
export async function spawnService(
  env: ServiceEnv,
  options: ServiceOptions = {},
): Promise<ServiceProcess> {
  const service = startServiceProcess(env, options);
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (service.child.exitCode !== null) {
      throw new Error(`service exited early:\n${service.output()}`);
    }
    const ports = announcedPorts(service.output());
    const announced =
      (env.PORT !== undefined || ports.port !== undefined) &&
      (env.MANAGEMENT_PORT !== undefined || ports.managementPort !== undefined);
    const live = announced
      ? await fetch(`${service.managementUrl}/health/live`).catch(() => undefined)
      : undefined;
    if (live?.ok) return service;
    if (Date.now() > deadline) {
      service.child.kill('SIGKILL');
      throw new Error(`service did not start:\n${service.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the process has written a line matching `pattern`; returns that line. */
export async function outputLine(
  service: ServiceProcess,
  pattern: RegExp,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = service
      .output()
      .split('\n')
      .find((l) => pattern.test(l));
    if (line !== undefined) return line;
    if (Date.now() > deadline) {
      throw new Error(`no line matching ${pattern} in the output:\n${service.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stops a service started by a spec (SIGTERM) and waits for it to exit. */
export async function stopService(service: ServiceProcess | undefined): Promise<void> {
  if (service && service.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
}
