import { randomBytes } from 'node:crypto';
import { open, readFile, rm, stat, rename } from 'node:fs/promises';
import type { PosReadClient } from '../client.js';
import type { CursorResource } from '../resources.js';
import type { ListQuery } from '../types.js';
import { type Format, RecordWriter } from './formats.js';
import { type Io, UsageError, write } from './io.js';
import { Progress } from './progress.js';

export const RESOURCES = {
  sales: 'sales',
  payments: 'payments',
  'cash-movements': 'cashMovements',
} as const;
export type ExportedResource = keyof typeof RESOURCES;

export interface ExportOptions {
  resource: ExportedResource;
  query: ListQuery;
  format: Format;
  out?: string;
  resume: boolean;
  progress: boolean;
}

/** What --resume needs: the export it belongs to, where to go on, how long the file was then. */
interface ResumeState {
  resource: string;
  query: ListQuery;
  format: Format;
  nextCursor: string;
  bytes: number;
}

export const stateFileOf = (out: string): string => `${out}.pos-read-resume.json`;

async function loadState(file: string): Promise<ResumeState | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ResumeState;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Business data (and what leads to it) is for the user only: files the CLI creates are 0600. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * The state replaced atomically: written to a temporary file of an unpredictable name, created
 * exclusively (`wx`: an existing file or a symbolic link planted there is an error, never
 * followed) and only readable by the user, then renamed over the state file.
 */
async function saveState(file: string, state: ResumeState): Promise<void> {
  const temporary = `${file}.${randomBytes(12).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(JSON.stringify(state) + '\n');
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

/**
 * The export's output, 0600 when created; an existing regular file (a fresh export replacing
 * it) is made 0600 too. A device or pipe (/dev/stdout) keeps its mode.
 */
async function openOutput(out: string, resuming: boolean) {
  const file = await open(out, resuming ? 'r+' : 'w', PRIVATE_FILE_MODE);
  if ((await file.stat()).isFile()) await file.chmod(PRIVATE_FILE_MODE);
  return file;
}

/** The options an export's state file pins, as the command line names them. */
const PINNED = [
  ['shop', (s: Pick<ResumeState, 'query' | 'format'>) => s.query.shopCode],
  ['from', (s: Pick<ResumeState, 'query' | 'format'>) => s.query.from],
  ['to', (s: Pick<ResumeState, 'query' | 'format'>) => s.query.to],
  ['limit', (s: Pick<ResumeState, 'query' | 'format'>) => s.query.limit],
  ['format', (s: Pick<ResumeState, 'query' | 'format'>) => s.format],
] as const;

const optionText = (name: string, value: string | number | undefined): string =>
  value === undefined ? `no --${name}` : `--${name} ${value}`;

/** --resume of another export than the state file's: says which option differs, nothing else. */
function refuseAnotherExport(stateFile: string, previous: ResumeState, o: ExportOptions): void {
  const differences =
    previous.resource === o.resource
      ? PINNED.filter(([, of]) => of(previous) !== of(o)).map(
          ([name, of]) =>
            `${optionText(name, of(o))} here, ${optionText(name, of(previous))} there`,
        )
      : [`export ${o.resource} here, export ${previous.resource} there`];
  if (differences.length === 0) return;
  throw new UsageError(
    `--resume: ${stateFile} is the state of another export (${differences.join('; ')}). ` +
      'Repeat that export with its own options and --resume, or remove the state file to start over.',
    false,
  );
}

/**
 * `pos-read export`: every record of the query, page by page, to a file or standard output.
 * With --out, after each page is written (and flushed) the next cursor and the file's length
 * are saved beside it; --resume truncates the file to that length and goes on from that cursor,
 * so an interrupted export ends with each record exactly once. The state file is removed when
 * the export is complete.
 */
export async function exportRecords(client: PosReadClient, io: Io, o: ExportOptions) {
  if (o.resume && !o.out) throw new UsageError('--resume needs --out FILE');
  const resource = client[RESOURCES[o.resource]] as CursorResource<Record<string, unknown>>;
  const stateFile = o.out ? stateFileOf(o.out) : undefined;
  const previous = o.resume && stateFile ? await loadState(stateFile) : undefined;
  if (previous && stateFile) refuseAnotherExport(stateFile, previous, o);
  const file = o.out ? await openOutput(o.out, previous !== undefined) : undefined;
  const progress = new Progress(io, `export ${o.resource}`, o.progress);
  try {
    let bytes = 0;
    if (file && previous) {
      await file.truncate(previous.bytes);
      bytes = (await stat(o.out as string)).size;
    }
    const writer = new RecordWriter(o.format, !previous);
    const list = resource.list({ ...o.query, cursor: previous?.nextCursor, signal: io.signal });
    for await (const page of list.pages()) {
      const text = writer.page(page.data);
      if (file) {
        const buffer = Buffer.from(text, 'utf8');
        await file.write(buffer, 0, buffer.length, bytes);
        await file.sync();
        bytes += buffer.length;
        if (page.nextCursor && stateFile) {
          const state = { resource: o.resource, query: o.query, format: o.format };
          await saveState(stateFile, { ...state, nextCursor: page.nextCursor, bytes });
        }
      } else {
        await write(io.stdout, text);
      }
      progress.page(page.data.length);
    }
    if (stateFile) await rm(stateFile, { force: true });
    progress.done();
    return { ...progress.totals, resumed: previous !== undefined };
  } finally {
    await file?.close();
  }
}
