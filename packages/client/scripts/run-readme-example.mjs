#!/usr/bin/env node
/**
 * `npm run client:example` at the repository's root: the client README's TypeScript program,
 * as written, run from this clone; `npm run client:example -- README.md` runs the root README's
 * instead (issue 56). It builds the client, makes a throw-away project that
 * resolves `@pos-read-api/client` to this build (as an install would), compiles the program
 * there with the repository's TypeScript and runs it with this process's environment
 * (POS_READ_BASE_URL, POS_READ_USERNAME, POS_READ_PASSWORD). Exit status: the program's.
 * `--print` writes the program it would run and stops (the tests compare it with the README).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const client = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(client, '../..');
const toStderr = { stdio: ['ignore', process.stderr, process.stderr] };
const args = process.argv.slice(2);
const readme = args.find((arg) => !arg.startsWith('--')) ?? 'packages/client/README.md';
const program = /```ts\n(import [\s\S]*?)```/.exec(readFileSync(join(root, readme), 'utf8'));
if (!program) throw new Error(`${readme} has no TypeScript program`);
if (args.includes('--print')) {
  process.stdout.write(program[1]);
  process.exit(0);
}

execFileSync(process.execPath, [join(client, 'scripts/build.mjs')], toStderr);
const dir = mkdtempSync(join(tmpdir(), 'pos-read-readme-example-'));
try {
  const compilerOptions = { module: 'nodenext', target: 'es2022', strict: true, outDir: 'out' };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...compilerOptions, types: ['node'] }, include: ['*.ts'] }),
  );
  mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
  mkdirSync(join(dir, 'node_modules/@pos-read-api'));
  symlinkSync(join(root, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'));
  symlinkSync(client, join(dir, 'node_modules/@pos-read-api/client'));
  writeFileSync(join(dir, 'example.ts'), program[1]);
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir],
    toStderr,
  );
  execFileSync(process.execPath, [join(dir, 'out/example.js')], { stdio: 'inherit' });
} catch (error) {
  process.exitCode = typeof error?.status === 'number' ? error.status : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
