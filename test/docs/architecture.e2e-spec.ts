import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * docs/architecture.md names files and symbols a newcomer goes looking for: each one must exist,
 * so the document cannot keep describing a shape the code no longer has. Paths are found by their
 * tail (the document writes them below `src/` or below a folder it is describing).
 */
const ROOT = path.resolve(__dirname, '../..');
const text = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);

/** What the recipes name on purpose without the code having it: their examples. */
const EXAMPLES = new Set([
  'backoffice/schema.sql', // the given schema, beside the repository (../shared/)
  'terminalId', // the recipe's new field
]);

const paths = [
  ...new Set([...text.matchAll(/`([\w./-]+\.(?:ts|sql|js|json|md|mjs|sh))`/g)].map((m) => m[1])),
].filter((p) => !EXAMPLES.has(p));

/** camelCase, PascalCase with a second capital, and UPPER_SNAKE names: code, not prose. */
const symbols = [
  ...new Set([...text.matchAll(/`([A-Za-z_]\w*)(?:\([^`]*\))?`/g)].map((m) => m[1])),
].filter((s) => /[a-z][A-Z]|^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(s) && !EXAMPLES.has(s));

describe('docs/architecture.md', () => {
  it('should name files at all, and symbols', () => {
    expect(paths.length).toBeGreaterThan(30);
    expect(symbols.length).toBeGreaterThan(40);
  });

  it('should name only files the repository has', () => {
    const missing = paths.filter(
      (p) => !tracked.some((file) => file === p || file.endsWith(`/${p}`)),
    );
    expect(missing).toEqual([]);
  });

  it('should name only symbols the code has', () => {
    const code = tracked
      .filter((file) => /^(src|tools|test|bench|packages\/client\/src|sql)\//.test(file))
      .filter((file) => /\.(ts|mjs|js|sql)$/.test(file))
      .map((file) => readFileSync(path.join(ROOT, file), 'utf8'))
      .join('\n');
    const missing = symbols.filter((symbol) => !new RegExp(`\\b${symbol}\\b`).test(code));
    expect(missing).toEqual([]);
  });
});
