import 'reflect-metadata';
import { runBackofficeAdmin } from './backoffice-admin';

/** `npm run backoffice -- <command>` (after `npm run build`); see --help. */
function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password, then Enter and Ctrl-D: ');
  return new Promise((resolve, reject) => {
    let data = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => (data += chunk));
    process.stdin.on('end', () => resolve(data));
    process.stdin.on('error', reject);
  });
}

void runBackofficeAdmin(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  readStdin,
}).then((code) => {
  process.exitCode = code;
});
