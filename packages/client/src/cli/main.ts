#!/usr/bin/env node
import { run } from './run.js';
import { terminalSafe } from './terminal-text.js';

const controller = new AbortController();
// An AbortError that says which signal: `mirror --follow` ends 130 on SIGINT (as `npm run`
// reports a Ctrl-C whatever its script does), 0 on SIGTERM (a service manager's stop).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => controller.abort(new DOMException(signal, 'AbortError')));
}
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
