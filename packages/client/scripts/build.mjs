#!/usr/bin/env node
/**
 * Builds dist/esm (ES modules) and dist/cjs (CommonJS), each with its .d.ts files, by running
 * the TypeScript compiler twice over src/. A package.json in each folder tells Node which kind
 * of module its .js files are. The bin (dist/cjs/cli/main.js) is made executable.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const builds = [
  ['esm', 'module', ['--module', 'ES2022', '--moduleResolution', 'Bundler']],
  ['cjs', 'commonjs', ['--module', 'CommonJS', '--moduleResolution', 'Node10']],
];
for (const [folder, type, flags] of builds) {
  const outDir = join(dist, folder);
  execFileSync(
    process.execPath,
    [tsc, '-p', join(root, 'tsconfig.json'), '--noEmit', 'false', '--outDir', outDir, ...flags],
    { stdio: 'inherit' },
  );
  writeFileSync(join(outDir, 'package.json'), JSON.stringify({ type }) + '\n');
}
chmodSync(join(dist, 'cjs/cli/main.js'), 0o755);
