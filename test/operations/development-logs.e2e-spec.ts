import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEMO_USERS } from '../../tools/seed/demo-data';
import { captureOutputOf } from '../support/log-capture';
import { freePort } from '../support/service-process';
import { TEST_KEY_ID, TEST_PRIVATE_KEY } from '../support/test-app';

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '../..');
// Colours and cursor codes a terminal would interpret.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

interface Terminal {
  child: ChildProcess;
  baseUrl: string;
  /** What the terminal showed, without colour codes, line ends normalised. */
  screen(): string;
}

/**
 * `npm start` in a developer's terminal: the built service under a pseudo-terminal (util-linux
 * `script`), APP_ENV=development, LOG_FORMAT left at auto, the embedded demo database.
 */
async function startInTerminal(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Terminal> {
  const [port, managementPort] = [await freePort(), await freePort()];
  const child = spawn(
    'script',
    ['-qfec', `${process.execPath} dist/tools/seed/start-development.js`, '/dev/null'],
    {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        APP_ENV: 'development',
        HOST: '127.0.0.1',
        PORT: String(port),
        MANAGEMENT_HOST: '127.0.0.1',
        MANAGEMENT_PORT: String(managementPort),
        DATA_DIR: dataDir,
        JWT_PRIVATE_KEY: TEST_PRIVATE_KEY,
        JWT_KEY_ID: TEST_KEY_ID,
        ...env,
      },
    },
  );
  let output = '';
  captureOutputOf(() => output);
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    screen: () => output.replace(ANSI, '').replace(/\r\n?/g, '\n'),
  };
}

async function shown(terminal: Terminal, pattern: RegExp, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(terminal.screen())) {
    if (Date.now() > deadline) throw new Error(`not shown: ${pattern}\n${terminal.screen()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Development logs in a terminal (APP_ENV=development, standard output a TTY)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pos-api-dev-logs-'));
  let terminal: Terminal | undefined;
  const running = (): Terminal => {
    if (!terminal) throw new Error('not started');
    return terminal;
  };

  beforeAll(async () => {
    terminal = await startInTerminal(dataDir);
    await shown(terminal, /Try\n.*curl[^\n]*\n[^\n]*\n─+\n/);
  });

  afterAll(async () => {
    const child = terminal?.child;
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('should end the start-up with a banner: API, portal, every demo user and one curl to try', () => {
    const { port } = new URL(running().baseUrl);
    const screen = running().screen();
    const banner = screen.slice(screen.indexOf('POS read API is ready'));
    expect(banner).toContain(`API        http://localhost:${port}/api/v1.0`);
    expect(banner).toContain(`Portal     http://localhost:${port}/docs`);
    expect(banner).toMatch(/\n {2}Version {4}\d+\.\d+\.\d+\S* {2}\(revision \S+, Node v[\d.]+\)\n/);
    const lines = banner.split('\n');
    for (const user of DEMO_USERS) {
      const credentials = `${user.username} / ${user.password}`;
      expect(lines.filter((l) => l.includes(credentials) && l.includes(user.note))).toHaveLength(1);
    }
    expect(banner).toContain(`curl -s -X POST http://localhost:${port}/api/v1.0/Token`);
  });

  it('should print one short readable line per event, none of them JSON, and no module or route listing', async () => {
    const response = await fetch(`${running().baseUrl}/api/v1.0/shops`);
    expect(response.status).toBe(401);
    await shown(running(), /INFO: GET \/api\/v1\.0\/shops 401 \d+ ms/);
    const lines = running()
      .screen()
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    expect(lines.filter((line) => /Mapped \{|dependencies initialized/.test(line))).toEqual([]);
    expect(
      lines.filter((line) => /^\[\d\d:\d\d:\d\d\.\d{3}\] [A-Z]+: /.test(line)).length,
    ).toBeGreaterThan(1);
  });
});
