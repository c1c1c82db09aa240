#!/usr/bin/env node
import { run } from './run.js';
import { terminalSafe } from './terminal-text.js';

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());
run(process.argv.slice(2), {
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`pos-read: ${terminalSafe(String(error))}\n`);
    process.exitCode = 1;
  },
);
