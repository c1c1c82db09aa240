import { run } from '../packages/client/src/cli/run';

/**
 * `pos-read` in a process of its own for the bench (bench/bulk.ts): the command line's arguments,
 * then its peak resident memory (`peak-rss-kb <n>`) on standard error as it ends.
 */
void run(process.argv.slice(2), {
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
}).then((code) => {
  process.stderr.write(`peak-rss-kb ${process.resourceUsage().maxRSS}\n`);
  process.exitCode = code;
});
