import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { program, requires } from '../support/requirements';

const UNIT = path.join(__dirname, '../../deploy/systemd/pos-read-api.service');

/** The unit's `Key=value` lines (the last value of a key repeated). */
function settings(): Map<string, string> {
  const lines = readFileSync(UNIT, 'utf8').split('\n');
  return new Map(
    lines
      .filter((line) => /^[A-Za-z]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** Issue 46, item 1: the systemd example signals node itself, and confines it. */
describe('deploy/systemd/pos-read-api.service', () => {
  it('should run node directly on the built service (systemd signals the process it started)', () => {
    expect(settings().get('ExecStart')).toMatch(/^\/usr\/bin\/node \S+\/dist\/src\/main\.js$/);
  });

  it("should use systemd's hardening options", () => {
    const unit = settings();
    for (const [key, value] of [
      ['NoNewPrivileges', 'yes'],
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'yes'],
      ['PrivateTmp', 'yes'],
      ['PrivateDevices', 'yes'],
      ['DynamicUser', 'yes'],
      ['CapabilityBoundingSet', ''],
      ['RestrictSUIDSGID', 'yes'],
      ['UMask', '0077'],
    ]) {
      expect([key, unit.get(key)]).toEqual([key, value]);
    }
    // Beyond the drain (SHUTDOWN_TIMEOUT_MS 10 s + 5 s to close), or systemd kills it mid-drain.
    expect(Number(unit.get('TimeoutStopSec'))).toBeGreaterThan(15);
  });

  requires(program('systemd-analyze', 'apt-get install systemd')).it(
    'should pass systemd-analyze verify',
    () => {
      expect(() =>
        execFileSync('systemd-analyze', ['verify', UNIT], { stdio: 'pipe' }),
      ).not.toThrow();
    },
  );
});
