import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import * as path from 'node:path';
import type { Requirement } from '../../support/requirements';

const ROOT = path.join(__dirname, '../../..');

/**
 * pos-read's own entry point (packages/client/src/cli/main.ts) in a process of its own, run from
 * the TypeScript source: SIGKILL must hit a real process, not a promise.
 */
export function spawnPosRead(argv: string[], env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [
      '-r',
      path.join(ROOT, 'test/support/swc-register.js'),
      '-r',
      path.join(ROOT, 'test/support/resolve-js-to-ts.js'),
      path.join(ROOT, 'packages/client/src/cli/main.ts'),
      ...argv,
    ],
    { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

/**
 * `npm run pos-read -- …` at the repository's root, as a developer types it, leading a process
 * group of its own: a Ctrl-C is SIGINT to the group (npm and pos-read both get it).
 */
export function spawnNpmPosRead(argv: string[], env: Record<string, string>) {
  const child = spawn('npm', ['run', '--silent', 'pos-read', '--', ...argv], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.resume();
  // The status a shell reports ($?): npm re-raises the signal it got, so 128 + its number.
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) =>
      resolve(code ?? (signal ? 128 + constants.signals[signal] : null)),
    ),
  );
  return {
    child,
    exited,
    stderr: () => stderr,
    ctrlC: () => process.kill(-(child.pid as number), 'SIGINT'),
  };
}

/** Mounting a small tmpfs (a disk that fills up): root on Linux. */
export const tmpfsMount: Requirement = {
  name: 'mount -t tmpfs (root on Linux)',
  enable: 'run the tests as root on Linux (CI does)',
  missing: () => (process.getuid?.() === 0 ? undefined : 'not root: cannot mount a tmpfs'),
};

export function mount(dir: string, size: string, remount = false): void {
  const options = remount ? `remount,size=${size}` : `size=${size}`;
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  if (result.status !== 0) throw new Error(`mount: ${result.stderr.toString()}`);
}

export function unmount(dir: string): void {
  spawnSync('umount', [dir]);
}
