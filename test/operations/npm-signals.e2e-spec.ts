import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { captureOutputOf } from '../support/log-capture';
import { freePort, newestMtimeMs, portIsFree } from '../support/service-process';
import { TEST_KEY_ID, TEST_PRIVATE_KEY } from '../support/test-app';

jest.setTimeout(60_000);

const ROOT = path.join(__dirname, '../..');

interface NpmRun {
  npm: ChildProcess;
  port: number;
  managementPort: number;
  output(): string;
  exited: Promise<number | null>;
}

/** `npm run start:prod` (the built service), in a process group of its own. */
async function npmStartProd(dataDir: string): Promise<NpmRun> {
  const built = path.join(ROOT, 'dist/src/main.js');
  if (statSync(built).mtimeMs < newestMtimeMs(path.join(ROOT, 'src'))) {
    throw new Error(`${built} is older than src/: run npm run build`);
  }
  const [port, managementPort] = [await freePort(), await freePort()];
  const npm = spawn('npm', ['run', 'start:prod'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      APP_ENV: 'development',
      LOG_FORMAT: 'json',
      HOST: '127.0.0.1',
      PORT: String(port),
      MANAGEMENT_HOST: '127.0.0.1',
      MANAGEMENT_PORT: String(managementPort),
      JWT_PRIVATE_KEY: TEST_PRIVATE_KEY,
      JWT_KEY_ID: TEST_KEY_ID,
      DATA_DIR: dataDir,
    },
  });
  let output = '';
  captureOutputOf(() => output);
  npm.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (!(await fetch(`http://127.0.0.1:${managementPort}/health/live`).catch(() => undefined))) {
    if (npm.exitCode !== null || Date.now() > deadline) {
      throw new Error(`npm run start:prod did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { npm, port, managementPort, output: () => output, exited };
}

/**
 * Issue 46, item 1: npm runs a script with `sh -c`, and dash forks the command instead of
 * replacing itself, so npm's forwarded SIGTERM killed the shell and left the service running,
 * holding its ports. The scripts `exec` node, which then gets the signal itself.
 */
describe('SIGTERM and SIGINT to npm run start:prod reach the service', () => {
  let dir: string;
  let run: NpmRun | undefined;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pos-api-npm-signals-'));
  });
  afterEach(() => {
    // Whatever the outcome, nothing of the run outlives the test: its whole process group.
    if (run?.npm.pid) {
      try {
        process.kill(-run.npm.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    run = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'should stop the service on %s to the npm process: shutdown line written, both ports free',
    async (signal) => {
      run = await npmStartProd(path.join(dir, 'data'));
      const started = Date.now();
      run.npm.kill(signal);
      const timeout = new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), 15_000));
      expect(await Promise.race([run.exited, timeout])).not.toBe('timed out');
      expect(Date.now() - started).toBeLessThan(10_000);
      // npm may return before its child: the ports are free within the drain time either way.
      const deadline = Date.now() + 10_000;
      while (!((await portIsFree(run.port)) && (await portIsFree(run.managementPort)))) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
      const messages = run
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages).toEqual(
        expect.arrayContaining([`${signal} received: shutting down`, 'Stopped']),
      );
      expect(messages).not.toContain(`${signal} received again: exiting now`);
    },
  );

  it('should create a missing DATA_DIR for its owner only (0700)', async () => {
    run = await npmStartProd(path.join(dir, 'nested', 'data'));
    expect(statSync(path.join(dir, 'nested', 'data')).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, 'nested')).mode & 0o777).toBe(0o700);
    run.npm.kill('SIGTERM');
    await run.exited;
  });

  it('should exec node in every package.json script that starts the service (npm start too)', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts['start:prod']).toBe('exec node dist/src/main.js');
    expect(scripts.start).toMatch(/&& exec node dist\/tools\/seed\/start-development\.js$/);
  });
});
