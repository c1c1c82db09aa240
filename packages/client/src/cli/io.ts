import type { Readable, Writable } from 'node:stream';
import type { PosReadClientOptions } from '../client.js';

/** What a command may touch: injected, so the tests run the commands in their own process. */
export interface Io {
  env: Record<string, string | undefined>;
  stdin: Readable;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  /** Cancels the command (SIGINT in the real tool). */
  signal?: AbortSignal;
  /** Extra client options (tests: the fetch that observes the requests). */
  client?: Partial<PosReadClientOptions>;
}

/** Exit codes of pos-read (documented in packages/client/README.md). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  unauthorized: 3,
  forbidden: 4,
  rateLimited: 5,
  unavailable: 6,
  refused: 7,
  /** pos-read verify: days differ between the mirror and the server. */
  differs: 8,
  /** pos-read mirror/verify: the file is not a usable mirror, the disk is full, no SQLite. */
  mirrorFile: 9,
  /** --shop names a shop the token does not have (compared exactly). */
  unknownShop: 10,
  interrupted: 130,
} as const;

export class UsageError extends Error {
  override name = 'UsageError';

  /** showUsage false: the message says all there is to fix, the usage text would bury it. */
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

/** Writes to a stream, waiting when it asks to (backpressure). */
export async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) {
    await new Promise<void>((resolve, reject) => {
      stream.once('drain', resolve);
      stream.once('error', reject);
    });
  }
}
