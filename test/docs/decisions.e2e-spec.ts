import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * docs/decisions.md stays navigable and its numbers stay citable: every decision has its anchor
 * and one place in the index, every link of the file resolves, and every "decision N" written in
 * the repository names a decision that exists (numbers are never reused or renumbered).
 */
const ROOT = path.resolve(__dirname, '../..');
const FILE = 'docs/decisions.md';
const text = readFileSync(path.join(ROOT, FILE), 'utf8');
const lines = text.split('\n');

const NUMBER = String.raw`\d+(?:\.\d+)*`;
const ANCHOR = new RegExp(String.raw`^<a id="decision-(${NUMBER})"></a>$`);
/** A decision starts as a list item `N. **…` (1 to 117) or a heading `### N.M …`. */
const START = new RegExp(String.raw`^(?:(\d+)\. \*\*|### (\d+(?:\.\d+)+) )`);

const anchors = lines.flatMap((line, index) => {
  const match = ANCHOR.exec(line);
  return match ? [{ number: match[1], index }] : [];
});
const numbers = anchors.map((a) => a.number);
const known = new Set(numbers);
const starts = lines.flatMap((line) => {
  const match = START.exec(line);
  return match ? [match[1] ?? match[2]] : [];
});
const index = text.slice(
  text.indexOf('## Index'),
  text.indexOf('<a id=', text.indexOf('## Index')),
);

/**
 * Every number `source` cites as "decision N", "decisions N–M" (a range by its two ends) or
 * "docs/decisions.md, N and M".
 */
function citations(source: string): string[] {
  const cited = [
    String.raw`\bdecisions? (${NUMBER})(?: ?[–-] ?(${NUMBER}))?`,
    String.raw`decisions\.md\`?,? (${NUMBER})(?: and (${NUMBER}))?`,
  ];
  return cited.flatMap((pattern) =>
    [...source.matchAll(new RegExp(pattern, 'gi'))].flatMap((m) => (m[2] ? [m[1], m[2]] : [m[1]])),
  );
}

describe('docs/decisions.md', () => {
  it('should give each decision one anchor, directly before its start', () => {
    expect(numbers.length).toBeGreaterThan(100);
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
    expect([...starts].sort()).toEqual([...numbers].sort());
    const misplaced = anchors.filter(({ number, index: at }) => {
      const next = lines.slice(at + 1).find((line) => line.trim() !== '') ?? '';
      const match = START.exec(next);
      return (match?.[1] ?? match?.[2]) !== number;
    });
    expect(misplaced.map((a) => a.number)).toEqual([]);
  });

  it('should list every decision once in the index, under a topic that exists', () => {
    const listed = [...index.matchAll(/\(#decision-([\d.]+)\)/g)].map((m) => m[1]);
    expect([...listed].sort()).toEqual([...numbers].sort());
    const topics = [...index.matchAll(/^\| \[[^\]]+\]\(#([a-z-]+)\)/gm)].map((m) => m[1]);
    expect(topics.length).toBeGreaterThan(5);
    for (const topic of topics) {
      expect(text).toMatch(new RegExp(`^<a id="${topic}"></a>\\n\\n## `, 'm'));
    }
  });

  it('should link only to decisions and topics that exist', () => {
    const ids = new Set([...text.matchAll(/^<a id="([^"]+)"><\/a>$/gm)].map((m) => m[1]));
    const targets = [...text.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(targets.filter((target) => !ids.has(target))).toEqual([]);
  });

  it('should have every "decision N" of the repository name an existing decision', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => /\.(ts|js|mjs|md|sh|ya?ml)$|^\.ci\//.test(file))
      .filter((file) => !file.endsWith('package-lock.json'));
    expect(files).toContain(FILE);
    const unknown = files.flatMap((file) => {
      const source = readFileSync(path.join(ROOT, file), 'utf8');
      return citations(source)
        .filter((number) => !known.has(number))
        .map((number) => `${file}: decision ${number}`);
    });
    expect(unknown).toEqual([]);
  });

  it('should read a cited range by its ends and a cited pair by both, so that either is checked', () => {
    expect(
      citations(
        'decisions 65–69 and decision 22.8.1; Decision 7; (`docs/decisions.md`, 110 and 111)',
      ),
    ).toEqual(['65', '69', '22.8.1', '7', '110', '111']);
  });
});
