import { ChildProcess, spawn } from 'node:child_process';
import { AddressInfo, createServer } from 'node:net';
import * as path from 'node:path';
import { captureOutputOf } from '../../support/log-capture';
import { TEST_KEY_ID, TEST_PRIVATE_KEY } from '../../support/test-app';

const ROOT = path.join(__dirname, '../../..');
const REGISTER = path.join(__dirname, 'swc-register.js');
const MAIN = path.join(ROOT, 'src/main.ts');

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  managementUrl: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs src/main.ts in a child process, as `npm start` would, and waits until it is live. */
export async function spawnService(env: Record<string, string>): Promise<ServiceProcess> {
  const [port, managementPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['-r', REGISTER, MAIN], {
    cwd: ROOT,
    env: {
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
    },
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
  const service: ServiceProcess = {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    managementUrl: `http://127.0.0.1:${managementPort}`,
    output: () => output,
    exited,
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited early:\n${output}`);
    const live = await fetch(`${service.managementUrl}/health/live`).catch(() => undefined);
    if (live?.ok) return service;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
