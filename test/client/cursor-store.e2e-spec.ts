import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FileCursorStore } from '../../packages/client/src/cursor-store';

/**
 * Issue 44, 7: FileCursorStore (exported by the client) replaces its file as the export's resume
 * state does: through a temporary file it creates exclusively under an unpredictable name, so a
 * symbolic link planted at any name beside it is never followed.
 */
describe(FileCursorStore.name, () => {
  let dir: string;
  let umask: number;

  beforeAll(() => {
    umask = process.umask(0o022);
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cursor-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  afterAll(() => process.umask(umask));

  it('should not write through a symbolic link planted at its old temporary name', async () => {
    const file = path.join(dir, 'cursors.json');
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched\n');
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    const store = new FileCursorStore(file);
    await store.save('sales', 'cursor-1');
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    expect(await store.load('sales')).toBe('cursor-1');
    // Only the planted link is left beside it: no temporary file of its own.
    expect(readdirSync(dir).sort()).toEqual(
      ['cursors.json', `cursors.json.${process.pid}.tmp`, 'victim.txt'].sort(),
    );
  });

  it('should keep each key, forget one saved as null, and remove the file when none is left', async () => {
    const file = path.join(dir, 'nested', 'cursors.json');
    const store = new FileCursorStore(file);
    await store.save('sales', 'a');
    await store.save('payments', 'b');
    await store.save('sales', null);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ payments: 'b' });
    await store.save('payments', null);
    expect(readdirSync(path.dirname(file))).toEqual([]);
  });
});
