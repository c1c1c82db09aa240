import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { program, requires } from '../support/requirements';

/**
 * deploy/prometheus/: the recording rules and alerts parse (`promtool check rules`) and every
 * alert's unit tests pass, firing and not firing (`promtool test rules`, tests/*.test.yml).
 * Debian's prometheus package has promtool; .ci/run installs it.
 */

// promtool's SLO tests evaluate days of samples: 28 s of CPU alone, past 60 s on a loaded CI.
jest.setTimeout(600_000);

const DIR = path.join(__dirname, '../../deploy/prometheus');
const promtool = program('promtool', 'apt-get install prometheus');

function run(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync('promtool', args, { cwd: DIR, encoding: 'utf8', timeout: 300_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** `- alert: Name` lines of a rules file. */
const alertsOf = (text: string): string[] =>
  [...text.matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1]);

requires(promtool).describe('Prometheus rules (deploy/prometheus)', () => {
  it('should pass promtool check rules', () => {
    const result = run('check', 'rules', 'recording-rules.yml', 'alerts.yml');
    expect(result).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('should pass promtool test rules', () => {
    const tests = readdirSync(path.join(DIR, 'tests')).filter((f) => f.endsWith('.test.yml'));
    const result = run('test', 'rules', ...tests.map((f) => `tests/${f}`));
    expect(result).toEqual({ status: 0, output: expect.not.stringContaining('FAILED') });
  });

  it('should test every alert both firing and not firing', () => {
    const alerts = alertsOf(readFileSync(path.join(DIR, 'alerts.yml'), 'utf8'));
    expect(alerts.length).toBeGreaterThanOrEqual(14);
    const tests = readdirSync(path.join(DIR, 'tests'))
      .filter((f) => f.endsWith('.test.yml'))
      .map((f) => readFileSync(path.join(DIR, 'tests', f), 'utf8'))
      .join('\n');
    // Each `alertname: X` block is followed by its exp_alerts: `[]` (quiet) or a list (firing).
    const blocks = [...tests.matchAll(/alertname: (\w+)\n\s+exp_alerts:( \[\])?/g)];
    const seen = (name: string, firing: boolean) =>
      blocks.some((m) => m[1] === name && (m[2] === undefined) === firing);
    const untested = alerts.filter((a) => !seen(a, true) || !seen(a, false));
    expect(untested).toEqual([]);
  });
});
