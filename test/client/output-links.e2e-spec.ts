import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openOutput, partialFileOf } from '../../packages/client/src/cli/export';

/**
 * Issue 54, item 3: --out never writes through a symbolic link planted where the file goes; it is
 * written beside (partialFileOf) and renamed over --out once whole.
 */
describe('pos-read --out and symbolic links', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'out-links-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([false, true])(
    'should refuse a link to a file, leaving the file as it was (resuming: %p)',
    async (resuming) => {
      const target = path.join(dir, 'precious.txt');
      writeFileSync(target, 'keep me', { mode: 0o644 });
      const out = path.join(dir, 'sales.csv');
      symlinkSync(target, out);
      await expect(openOutput(out, resuming)).rejects.toThrow(
        /--out .*sales\.csv is a symbolic link: refused/,
      );
      expect(readFileSync(target, 'utf8')).toBe('keep me');
      expect(statSync(target).mode & 0o777).toBe(0o644);
    },
  );

  it('should refuse a dangling link, creating nothing where it points', async () => {
    const target = path.join(dir, 'created-elsewhere.txt');
    const out = path.join(dir, 'sales.csv');
    symlinkSync(target, out);
    await expect(openOutput(out, false)).rejects.toThrow(/is a symbolic link: refused/);
    expect(existsSync(target)).toBe(false);
  });

  it('should write through a link to a device (/dev/stdout is one), and create a plain file 0600', async () => {
    const out = path.join(dir, 'stdout');
    symlinkSync('/dev/null', out);
    const device = await openOutput(out, false);
    await device.file.write('x');
    await device.commit();
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    const plain = path.join(dir, 'plain.csv');
    const output = await openOutput(plain, false);
    await output.file.write('id\n');
    await output.commit();
    expect(readFileSync(plain, 'utf8')).toBe('id\n');
    expect(statSync(plain).mode & 0o777).toBe(0o600);
    expect(existsSync(partialFileOf(plain))).toBe(false);
  });

  it('should write beside --out and leave an existing file as it was until the output is whole', async () => {
    const out = path.join(dir, 'sales.csv');
    writeFileSync(out, 'old\n', { mode: 0o644 });
    const output = await openOutput(out, false);
    await output.file.write('id\n1\n');
    expect(readFileSync(out, 'utf8')).toBe('old\n');
    expect(readFileSync(partialFileOf(out), 'utf8')).toBe('id\n1\n');
    await output.commit();
    expect(readFileSync(out, 'utf8')).toBe('id\n1\n');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(existsSync(partialFileOf(out))).toBe(false);
    // An unfinished output that cannot be resumed leaves nothing behind, --out untouched.
    const failed = await openOutput(out, false);
    await failed.file.write('half');
    await failed.abandon(false);
    expect(readFileSync(out, 'utf8')).toBe('id\n1\n');
    expect(existsSync(partialFileOf(out))).toBe(false);
  });

  it('should remove a link planted at the partial name instead of writing through it, and refuse one on --resume', async () => {
    const target = path.join(dir, 'precious.txt');
    writeFileSync(target, 'keep me', { mode: 0o644 });
    const out = path.join(dir, 'sales.csv');
    symlinkSync(target, partialFileOf(out));
    const output = await openOutput(out, false);
    await output.file.write('fresh');
    await output.commit();
    expect(readFileSync(out, 'utf8')).toBe('fresh');
    symlinkSync(target, partialFileOf(out));
    await expect(openOutput(out, true)).rejects.toThrow(/is a symbolic link: refused/);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    expect(statSync(target).mode & 0o777).toBe(0o644);
  });

  it('should resume the partial file, and the --out an older pos-read wrote in place', async () => {
    const out = path.join(dir, 'sales.csv');
    const first = await openOutput(out, false);
    await first.file.write('id\n1\n');
    await first.abandon(true);
    expect(existsSync(out)).toBe(false);
    const resumed = await openOutput(out, true);
    expect((await resumed.file.stat()).size).toBe(5);
    await resumed.file.write('2\n', 5);
    await resumed.commit();
    expect(readFileSync(out, 'utf8')).toBe('id\n1\n2\n');
    // Written in place before this change: moved aside, then gone on with.
    writeFileSync(path.join(dir, 'old.csv'), 'id\n7\n');
    const legacy = await openOutput(path.join(dir, 'old.csv'), true);
    await legacy.file.write('8\n', 5);
    await legacy.commit();
    expect(readFileSync(path.join(dir, 'old.csv'), 'utf8')).toBe('id\n7\n8\n');
  });
});
