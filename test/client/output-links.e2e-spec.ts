import {
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openOutput } from '../../packages/client/src/cli/export';

/** Issue 54, item 3: --out never writes through a symbolic link planted where the file goes. */
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
    await device.write('x');
    await device.close();
    const plain = path.join(dir, 'plain.csv');
    const file = await openOutput(plain, false);
    await file.write('id\n');
    await file.close();
    expect(readFileSync(plain, 'utf8')).toBe('id\n');
    expect(statSync(plain).mode & 0o777).toBe(0o600);
  });
});
