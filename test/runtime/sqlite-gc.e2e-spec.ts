import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const REGISTER = path.join(__dirname, '../support/swc-register.js');
const CHILD = path.join(__dirname, 'sqlite-gc.child.ts');

jest.setTimeout(180_000);

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

function runChild(dataDir: string): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', '-r', REGISTER, CHILD, dataDir], {
      env: { PATH: process.env.PATH },
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code, signal) => resolve({ code, signal, output }));
  });
}

/**
 * Issue 16: on Node 24 the container's demo aborted inside better-sqlite3 12 when the garbage
 * collector freed a statement. This runs on whatever Node runs the suite; CI runs the suite on
 * the machine's Node and on the Dockerfile's (docs/operations.md, "Node versions in CI").
 */
describe(`The embedded SQLite driver under forced garbage collection (Node ${process.version})`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pos-api-sqlite-gc-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('should create the demo database and run 10,000 statements with forced collections without a crash', async () => {
    const run = await runChild(dataDir);
    expect({
      code: run.code,
      signal: run.signal,
      crash: /Assertion failed/.exec(run.output)?.[0],
    }).toEqual({ code: 0, signal: null, crash: undefined });
    expect(run.output).toMatch(/done: 10000 statements, 200 forced collections/);
  });
});
