#!/usr/bin/env node
/**
 * `npm run pos-read -- <command> …` at the repository's root: runs the pos-read this clone
 * builds, never a package of that name fetched from the registry (which nobody here owns). The
 * client is built first when dist/ is missing or older than src/ (the build's output goes to
 * standard error, so standard output stays the command's). Then the CommonJS bin runs in this
 * process, with this process's arguments, signals and exit code, in the directory npm run was
 * typed in (INIT_CWD; npm runs scripts at the root), so `--out sales.csv` lands there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'dist/cjs/cli/main.js');

/** The newest modification time of the files under dir. */
function newest(dir) {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const file = join(dir, entry.name);
      return entry.isDirectory() ? newest(file) : statSync(file).mtimeMs;
    }),
  );
}

if (!existsSync(bin) || statSync(bin).mtimeMs < newest(join(root, 'src'))) {
  process.stderr.write('pos-read: building packages/client first (npm run client:build)\n');
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], {
    stdio: ['ignore', process.stderr, process.stderr],
  });
}
// How to run it again, for the messages that print a command (--resume after Ctrl-C).
process.env.POS_READ_COMMAND ??= 'npm run pos-read --';
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
createRequire(import.meta.url)(bin);
