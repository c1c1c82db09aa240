/**
 * Prints, once at the end of the run, why tests were skipped: requirements.ts appends one JSON line
 * per skipped block to the file named by POS_API_TEST_SKIP_LOG, which this reporter creates before
 * jest starts its workers (they inherit the variable).
 */
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

class SkipReasonsReporter {
  constructor() {
    this.dir = mkdtempSync(path.join(tmpdir(), 'pos-api-skips-'));
    process.env.POS_API_TEST_SKIP_LOG = path.join(this.dir, 'skips.jsonl');
  }

  onRunComplete() {
    let lines = [];
    try {
      lines = readFileSync(process.env.POS_API_TEST_SKIP_LOG, 'utf8').split('\n').filter(Boolean);
    } catch {
      // Nothing was skipped.
    }
    rmSync(this.dir, { recursive: true, force: true });
    if (lines.length === 0) return;
    const specsByReason = new Map();
    for (const { line, spec } of lines.map((l) => JSON.parse(l))) {
      if (!specsByReason.has(line)) specsByReason.set(line, new Set());
      specsByReason.get(line).add(spec);
    }
    const out = [
      '',
      'Skipped: something they need from outside npm is missing (CI=true fails instead).',
    ];
    for (const [line, specs] of specsByReason) {
      const names = [...specs].sort();
      const shown =
        names.length > 4 ? [...names.slice(0, 3), `and ${names.length - 3} more`] : names;
      out.push(
        `- ${line}`,
        `  (${names.length} spec file${names.length === 1 ? '' : 's'}: ${shown.join(', ')})`,
      );
    }
    process.stderr.write(`${out.join('\n')}\n\n`);
  }
}

module.exports = SkipReasonsReporter;
