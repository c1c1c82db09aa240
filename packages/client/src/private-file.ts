import { randomBytes } from 'node:crypto';
import { open, rename } from 'node:fs/promises';

/** Business data (and what leads to it) is for the user only: files the client creates are 0600. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Replaces `file` atomically with `text`: written to a temporary file of an unpredictable name,
 * created exclusively (`wx`: an existing file or a symbolic link planted there is an error, never
 * followed) and only readable by the user, then renamed over `file`.
 */
export async function replacePrivateFile(file: string, text: string): Promise<void> {
  const temporary = `${file}.${randomBytes(12).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}
