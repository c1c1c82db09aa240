import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * .ci/runtime-specs, the specs CI runs again on the image's Node major (issue 47): every line is
 * a jest path pattern that still matches a spec, so a moved or renamed spec cannot drop out of the
 * set unnoticed.
 */
const ROOT = path.resolve(__dirname, '../..');

/** The set's patterns, as .ci/node-tests reads them: comments and blank lines out. */
function patterns(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '');
}

const specs = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => /\.(spec|e2e-spec)\.ts$/.test(file));

describe('.ci/runtime-specs', () => {
  const set = patterns(readFileSync(path.join(ROOT, '.ci/runtime-specs'), 'utf8'));

  it('should name the native modules, the runtime, the start and the client', () => {
    expect(set.length).toBeGreaterThan(10);
    expect(set).toEqual(
      expect.arrayContaining([
        'src/database/sqlite-driver.spec.ts',
        'src/auth/passwords/',
        'test/demo/',
        'test/client/',
      ]),
    );
  });

  it('should have every line match at least one spec', () => {
    const unmatched = set.filter(
      (pattern) => !specs.some((file) => new RegExp(pattern).test(file)),
    );
    expect(unmatched).toEqual([]);
  });

  it('should read a line as its pattern alone', () => {
    expect(patterns('# a comment\n\nsrc/a.spec.ts   # why\n  test/b/\n')).toEqual([
      'src/a.spec.ts',
      'test/b/',
    ]);
  });
});
