import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { captureOutputOf } from '../support/log-capture';
import { freePort } from '../support/service-process';
import { TEST_PRIVATE_KEY } from '../support/test-app';

const MAIN = path.join(__dirname, '../../dist/src/main.js');
/** The image's user. */
const IMAGE_UID = 1000;

/** Whether `uid` can read the build where this checkout lives (not inside a 0700 directory). */
function readableBy(uid: number): boolean {
  const probe = spawnSync(
    process.execPath,
    ['-e', `require('fs').accessSync(${JSON.stringify(MAIN)})`],
    {
      uid,
      gid: uid,
      stdio: 'ignore',
    },
  );
  return probe.status === 0;
}

/**
 * How to run the built service as `uid`: as that user from the start where it can read the
 * checkout; otherwise (a clone inside a directory only its owner may enter, such as `mktemp -d`
 * makes) loaded as root, then as that user before it starts, which is where it reads its key.
 */
function asUser(uid: number): { args: string[]; uid?: number; gid?: number } {
  if (readableBy(uid)) return { args: [MAIN], uid, gid: uid };
  const launcher =
    `const main = require(${JSON.stringify(MAIN)}); process.setgid(${uid}); process.setuid(${uid}); ` +
    'main.bootstrap().catch(main.exitOnStartFailure);';
  return { args: ['-e', launcher] };
}

/** Runs the built service until it exits; its standard output and error, and the exit code. */
async function failedStart(
  env: Record<string, string>,
  uid?: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const as = uid !== undefined ? asUser(uid) : { args: [MAIN] };
  const child = spawn(process.execPath, as.args, {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      MANAGEMENT_PORT: String(await freePort()),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(as.uid !== undefined ? { uid: as.uid, gid: as.gid } : {}),
  });
  let stdout = '';
  let stderr = '';
  captureOutputOf(() => stdout + stderr);
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

/** Every line parsed as JSON (a line that is not fails the test, naming it). */
function jsonLines(output: string): Array<{ level: string; context?: string; msg: string }> {
  return output
    .trim()
    .split('\n')
    .map((line) => {
      try {
        return JSON.parse(line) as { level: string; context?: string; msg: string };
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}

/** Issue 46, items 4 and 8: a failed start logs JSON from its first line to its last. */
describe('A start-up failure with LOG_FORMAT=json', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pos-api-start-failure-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should say "permission denied for uid N" for a key file the service cannot read, in JSON lines only', async () => {
    const key = path.join(dir, 'jwt.pem');
    writeFileSync(key, TEST_PRIVATE_KEY, { mode: 0o600 });
    const data = path.join(dir, 'data');
    // As root (the image's case: a root-owned 0600 secret), run as the image's uid; otherwise a
    // key this user may not read.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      chmodSync(dir, 0o755);
      mkdirSync(data);
      chownSync(data, IMAGE_UID, IMAGE_UID);
    } else {
      chmodSync(key, 0o000);
    }
    const uid = asRoot ? IMAGE_UID : process.getuid?.();
    const { code, stdout, stderr } = await failedStart(
      {
        APP_ENV: 'development',
        LOG_FORMAT: 'json',
        DATA_DIR: data,
        JWT_PRIVATE_KEY_FILE: key,
      },
      asRoot ? IMAGE_UID : undefined,
    );

    expect(code).toBe(1);
    expect(stderr).toBe('');
    const lines = jsonLines(stdout);
    expect(lines[lines.length - 1]).toMatchObject({
      level: 'fatal',
      context: 'Bootstrap',
      msg: expect.stringMatching(
        new RegExp(
          `^The service could not start: JWT_PRIVATE_KEY_FILE: cannot read ${key}: ` +
            `permission denied for uid ${uid} \\(owned by uid \\d+, mode 0[0-7]{3}\\); ` +
            `make it readable: chown ${uid} ${key}$`,
        ),
      ),
    });
  });

  it('should write an invalid configuration as one JSON line', async () => {
    const { code, stdout, stderr } = await failedStart({ LOG_FORMAT: 'json', PORT: 'abc' });
    expect(code).toBe(1);
    expect(stderr).toBe('');
    const lines = jsonLines(stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'fatal',
      msg: expect.stringMatching(
        /^The service could not start: Invalid configuration:\n {2}- PORT: /,
      ),
    });
  });

  it("should write Nest's lines of a failed app build as JSON too (no coloured console lines)", async () => {
    const { code, stdout, stderr } = await failedStart({
      APP_ENV: 'development',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
      DATA_DIR: path.join(dir, 'data'),
      JWT_PRIVATE_KEY_FILE: dir,
    });
    expect(code).toBe(1);
    expect(stderr).toBe('');
    const lines = jsonLines(stdout);
    expect(lines.map((l) => l.context)).toEqual(
      expect.arrayContaining(['NestFactory', 'ExceptionHandler', 'Bootstrap']),
    );
    expect(lines[lines.length - 1].msg).toBe(
      `The service could not start: JWT_PRIVATE_KEY_FILE: cannot read ${dir}: a directory, not a file`,
    );
  });
});
