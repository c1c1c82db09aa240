import { statSync, type Stats } from 'node:fs';

/**
 * Why `file` (named by `variable`) could not be read, for the start-up error: a permission
 * problem names the uid the service runs as and the file's owner and mode, with the command that
 * fixes it (the image runs as uid 1000, and a mounted 0600 secret is usually root's).
 */
export function unreadableFileMessage(
  variable: string,
  file: string,
  error: unknown,
  uid: number | undefined,
  stat: (path: string) => Pick<Stats, 'uid' | 'mode'> = statSync,
): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const prefix = `${variable}: cannot read ${file}`;
  if (code === 'EACCES' || code === 'EPERM') {
    let owner = '';
    try {
      const { uid: ownerUid, mode } = stat(file);
      owner = ` (owned by uid ${ownerUid}, mode ${(mode & 0o777).toString(8).padStart(4, '0')})`;
    } catch {
      // the folder is not searchable either: the permission part says enough
    }
    const who = uid === undefined ? 'this user' : `uid ${uid}`;
    const fix = uid === undefined ? '' : `; make it readable: chown ${uid} ${file}`;
    return `${prefix}: permission denied for ${who}${owner}${fix}`;
  }
  if (code === 'ENOENT') return `${prefix}: no such file`;
  if (code === 'EISDIR') return `${prefix}: a directory, not a file`;
  return code ? `${prefix}: ${code}` : prefix;
}
