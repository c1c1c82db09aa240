/**
 * What a spec needs from outside npm (a browser, a server, a database), checked before its tests
 * are collected. Locally, a block whose requirement is missing is registered with describe.skip /
 * it.skip, so jest's summary counts it as skipped, and the reason with the command that makes it
 * available is printed once at the end of the run (skip-reasons.reporter.js). With CI=true a
 * missing requirement is a failing test instead: CI runs everything.
 *
 * One call per describe block or per test:
 *
 *   requires(chromium).describe('The portal in a real browser', () => { ... });
 *   requires(redis).it('should name redis up', async () => { ... });
 *   describeEachDatabase('Reports across instances', (ctx) => { ... }, { requires: [redis] });
 *   requires(program('podman', 'apt-get install podman')).describe(...);   // on PATH
 *   requires(program('/usr/sbin/mariadbd', 'apt-get install mariadb-server')).it(...);
 *
 * describeEachDatabase adds `mariadb` (TEST_DATABASE_URL) to its MariaDB variant by itself.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, appendFileSync, constants } from 'node:fs';
import * as path from 'node:path';

export interface Requirement {
  /** What it is, for people: "Chromium", "Redis at redis://127.0.0.1:6379". */
  name: string;
  /** Why it is not available, or undefined when it is. Synchronous: jest collects synchronously. */
  missing(): string | undefined;
  /** The command(s) that make it available. */
  enable: string;
}

/** CI=true (or any value but false/0): every requirement must be met. */
function requirementsAreMandatory(): boolean {
  const ci = process.env.CI?.toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/** Memoised per spec file: a probe runs once however many blocks need it. */
function once(probe: () => string | undefined): () => string | undefined {
  let result: { reason: string | undefined } | undefined;
  return () => (result ??= { reason: probe() }).reason;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A program found at an absolute path, or by name on PATH. */
export function program(command: string, install: string, name = command): Requirement {
  return {
    name,
    enable: install,
    missing: once(() => {
      const found = path.isAbsolute(command)
        ? executable(command)
        : (process.env.PATH ?? '')
            .split(path.delimiter)
            .some((dir) => dir !== '' && executable(path.join(dir, command)));
      return found ? undefined : `${command} is not installed`;
    }),
  };
}

/** The browser the portal's specs drive: Debian's chromium package, or TEST_CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.TEST_CHROMIUM_PATH || '/usr/bin/chromium';
export const chromium = program(
  CHROMIUM_PATH,
  'apt-get install chromium (or set TEST_CHROMIUM_PATH to a Chromium)',
  'Chromium',
);

/** The Redis the specs use (TEST_REDIS_URL, default the machine's own; `.ci/run` starts it). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Sends PING to host:port (argv) and exits 0 on +PONG; the reply or the error otherwise. */
const PING = `
const socket = require('node:net').connect(Number(process.argv[2]), process.argv[1]);
socket.setTimeout(1500, () => { console.log('no answer within 1.5 s'); process.exit(1); });
socket.on('connect', () => socket.write('PING\\r\\n'));
socket.on('data', (d) => { const r = String(d).trim(); if (r !== '+PONG') console.log('answered ' + r); process.exit(r === '+PONG' ? 0 : 1); });
socket.on('error', (e) => { console.log(e.code || e.message); process.exit(1); });
`;

export const redis: Requirement = {
  name: `Redis at ${TEST_REDIS_URL}`,
  enable: 'apt-get install redis-server (or set TEST_REDIS_URL=redis://host:port)',
  missing: once(() => {
    const url = new URL(TEST_REDIS_URL);
    const port = url.port || '6379';
    const probe = spawnSync(process.execPath, ['-e', PING, url.hostname, port], {
      encoding: 'utf8',
      timeout: 5000,
    });
    if (probe.status === 0) return undefined;
    return `nothing answers PING there (${probe.stdout.trim() || probe.error?.message})`;
  }),
};

/** A MariaDB server for the MariaDB variant of describeEachDatabase. */
export const mariadb: Requirement = {
  name: 'MariaDB',
  enable:
    'apt-get install mariadb-server, start it, then TEST_DATABASE_URL=mysql://root@127.0.0.1:3306/ npm test',
  missing: once(() => (process.env.TEST_DATABASE_URL ? undefined : 'TEST_DATABASE_URL is not set')),
};

/** The PostgreSQL the mirror's specs write to (TEST_POSTGRES_URL; `.ci/run` starts it). */
export const TEST_POSTGRES_URL =
  process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** Opens a TCP connection to host:port (argv); exits 0 when it is accepted, else prints why. */
const CONNECT = `
const socket = require('node:net').connect(Number(process.argv[2]), process.argv[1]);
socket.setTimeout(1500, () => { console.log('no answer within 1.5 s'); process.exit(1); });
socket.on('connect', () => process.exit(0));
socket.on('error', (e) => { console.log(e.code || e.message); process.exit(1); });
`;

/** A PostgreSQL server, for the mirror's PostgreSQL target (a database of each spec's own). */
export const postgres: Requirement = {
  name: `PostgreSQL at ${new URL(TEST_POSTGRES_URL).host}`,
  enable:
    'apt-get install postgresql, then pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start (or set TEST_POSTGRES_URL)',
  missing: once(() => {
    const url = new URL(TEST_POSTGRES_URL);
    const probe = spawnSync(process.execPath, ['-e', CONNECT, url.hostname, url.port || '5432'], {
      encoding: 'utf8',
      timeout: 5000,
    });
    if (probe.status === 0) return undefined;
    return `nothing accepts connections there (${probe.stdout.trim() || probe.error?.message})`;
  }),
};

const reported = new Set<string>();

/** Hands the reason to the run's reporter (printed once per run), or prints it once per file. */
function reportSkip(requirement: Requirement, reason: string, title: string): void {
  const line = `${requirement.name}: ${reason}. To run them: ${requirement.enable}`;
  const log = process.env.POS_API_TEST_SKIP_LOG;
  if (log) {
    const spec = path.relative(process.cwd(), expect.getState().testPath ?? '');
    appendFileSync(log, `${JSON.stringify({ line, spec, title })}\n`);
  } else if (!reported.has(line)) {
    reported.add(line);
    console.warn(`Skipped: ${line}`);
  }
}

/** The first unmet requirement and why, or undefined when all are met. */
function firstMissing(requirements: Requirement[]): [Requirement, string] | undefined {
  for (const requirement of requirements) {
    const reason = requirement.missing();
    if (reason !== undefined) return [requirement, reason];
  }
  return undefined;
}

function failure(requirement: Requirement, reason: string): Error {
  const error = new Error(
    `${requirement.name} is required with CI=true: ${reason}. To provide it: ${requirement.enable}`,
  );
  error.stack = error.message; // the message says it all; no code frame of this file
  return error;
}

export interface RequiringBlocks {
  describe(title: string, body: () => void): void;
  it(title: string, fn: jest.ProvidesCallback, timeout?: number): void;
}

/** jest's describe and it, run when every requirement is met, else skipped (failed with CI=true). */
export function requires(...requirements: Requirement[]): RequiringBlocks {
  return {
    describe(title, body) {
      const unmet = firstMissing(requirements);
      if (!unmet) return describe(title, body);
      if (requirementsAreMandatory()) {
        return describe(title, () => {
          it(`needs ${unmet[0].name}`, () => {
            throw failure(...unmet);
          });
        });
      }
      reportSkip(...unmet, title);
      describe.skip(title, body);
    },
    it(title, fn, timeout) {
      const unmet = firstMissing(requirements);
      if (!unmet) return it(title, fn, timeout);
      if (requirementsAreMandatory()) {
        return it(title, () => {
          throw failure(...unmet);
        });
      }
      reportSkip(...unmet, title);
      it.skip(title, fn, timeout);
    },
  };
}
