import type { Readable } from 'node:stream';
import type { Credentials } from '../token-manager.js';
import { type Io, UsageError } from './io.js';

const USERNAME_VARIABLE = 'POS_READ_USERNAME';
const PASSWORD_VARIABLE = 'POS_READ_PASSWORD';

async function firstLine(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += Buffer.from(chunk as Uint8Array).toString('utf8');
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0];
}

/**
 * Credentials come from the environment (POS_READ_USERNAME, POS_READ_PASSWORD) or, with
 * --password-stdin, the password from the first line of standard input: never from the
 * command line, which other users of the machine can read (`ps`).
 */
export async function credentialsOf(io: Io, passwordStdin: boolean): Promise<Credentials> {
  const username = io.env[USERNAME_VARIABLE];
  if (!username) throw new UsageError(`set ${USERNAME_VARIABLE} to the integration user's name`);
  const password = passwordStdin ? await firstLine(io.stdin) : io.env[PASSWORD_VARIABLE];
  if (!password) {
    throw new UsageError(
      `give the password in ${PASSWORD_VARIABLE} or on standard input with --password-stdin`,
    );
  }
  return { username, password };
}
