import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import * as path from 'node:path';
import { captureOutputOf } from './log-capture';
import { TEST_KEY_ID, TEST_PRIVATE_KEY } from './test-app';

const ROOT = path.join(__dirname, '../..');
const REGISTER = path.join(__dirname, 'swc-register.js');
const MAIN = path.join(ROOT, 'src/main.ts');
const BUILT = path.join(ROOT, 'dist');

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  managementUrl: string;
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
}

/** Environment variables to set; undefined removes one of the defaults. */
export type ServiceEnv = Record<string, string | undefined>;

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
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
function builtEntry(entry: string): string {
  const file = path.join(BUILT, entry);
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build`);
  const sources = Math.max(
    newestMtimeMs(path.join(ROOT, 'src')),
    newestMtimeMs(path.join(ROOT, 'tools')),
  );
  if (statSync(file).mtimeMs < sources) {
    throw new Error(`${file} is older than src/ or tools/: run npm run build`);
  }
  return file;
}

/** Starts the service in a child process on free ports, without waiting for it. */
export async function startServiceProcess(
  env: ServiceEnv,
  options: ServiceOptions = {},
): Promise<ServiceProcess> {
  const [port, managementPort] = [await freePort(), await freePort()];
  const merged: ServiceEnv = {
    PATH: process.env.PATH,
    APP_ENV: 'development',
    DEMO_SEED: 'false',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: String(port),
    MANAGEMENT_HOST: '127.0.0.1',
    MANAGEMENT_PORT: String(managementPort),
    JWT_PRIVATE_KEY: TEST_PRIVATE_KEY,
    JWT_KEY_ID: TEST_KEY_ID,
    ...env,
  };
  const args = options.built
    ? [builtEntry(options.entry ?? 'src/main.js')]
    : ['-r', REGISTER, MAIN];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
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
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    managementUrl: `http://127.0.0.1:${managementPort}`,
    output: () => output,
    exited,
  };
}

/** Runs the service in a child process, as `npm start` would, and waits until it is live. */
export async function spawnService(
  env: ServiceEnv,
  options: ServiceOptions = {},
): Promise<ServiceProcess> {
  const service = await startServiceProcess(env, options);
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (service.child.exitCode !== null) {
      throw new Error(`service exited early:\n${service.output()}`);
    }
    const live = await fetch(`${service.managementUrl}/health/live`).catch(() => undefined);
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
