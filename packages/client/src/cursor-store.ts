import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { replacePrivateFile } from './private-file.js';

/**
 * Where a walk over a cursor endpoint keeps its position, so that a sync resumes after a crash.
 * `load` gives the cursor to start from (null: from the beginning); `save` is called with the
 * next cursor after the consumer has taken a whole page, and with null when the walk is over (a
 * feed never saves null: it resumes from its last cursor on the next poll).
 */
export interface CursorStore {
  load(key: string): Promise<string | null>;
  save(key: string, cursor: string | null): Promise<void>;
}

/** Keeps cursors in memory (tests, or a process that never restarts). */
export class MemoryCursorStore implements CursorStore {
  private readonly cursors = new Map<string, string>();

  load(key: string): Promise<string | null> {
    return Promise.resolve(this.cursors.get(key) ?? null);
  }

  save(key: string, cursor: string | null): Promise<void> {
    if (cursor === null) this.cursors.delete(key);
    else this.cursors.set(key, cursor);
    return Promise.resolve();
  }
}

/**
 * Keeps cursors in one JSON file (0600), replaced atomically on each save through an exclusive
 * temporary file of unpredictable name, so a symbolic link planted beside it is never followed.
 */
export class FileCursorStore implements CursorStore {
  constructor(private readonly file: string) {}

  async load(key: string): Promise<string | null> {
    return (await this.read())[key] ?? null;
  }

  async save(key: string, cursor: string | null): Promise<void> {
    const all = await this.read();
    if (cursor === null) delete all[key];
    else all[key] = cursor;
    if (Object.keys(all).length === 0) return rm(this.file, { force: true });
    await mkdir(dirname(this.file), { recursive: true });
    await replacePrivateFile(this.file, JSON.stringify(all, null, 2) + '\n');
  }

  private async read(): Promise<Record<string, string>> {
    try {
      return JSON.parse(await readFile(this.file, 'utf8')) as Record<string, string>;
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return {};
      throw error;
    }
  }
}
