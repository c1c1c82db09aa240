import { PassThrough, Readable } from 'node:stream';
import { run } from '../../../packages/client/src/cli/run';
import { CLIENT_BASE_URL, Wire } from './wire';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return () => text;
}

/** Runs pos-read in this process, its requests going through `wire`. */
export async function posRead(
  wire: Wire,
  argv: string[],
  options: {
    env?: Record<string, string>;
    stdin?: string;
    signal?: AbortSignal;
    client?: object;
    /** Standard output as a terminal's (a table, text made inert). */
    stdoutIsTTY?: boolean;
  } = {},
): Promise<CliResult> {
  const stdout = Object.assign(new PassThrough(), options.stdoutIsTTY ? { isTTY: true } : {});
  const stderr = new PassThrough();
  const out = collect(stdout);
  const err = collect(stderr);
  const code = await run(['--base-url', CLIENT_BASE_URL, ...argv], {
    env: options.env ?? {},
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdout,
    stderr,
    signal: options.signal,
    client: { fetch: wire.fetch, ...options.client },
  });
  return { code, stdout: out(), stderr: err() };
}
