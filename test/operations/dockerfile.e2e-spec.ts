import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string; license: string };
const dockerfile = read('Dockerfile');

/** An `ARG NAME=default` of the Dockerfile. */
function argDefault(name: string): string | undefined {
  return new RegExp(`^ARG ${name}=(\\S+)$`, 'm').exec(dockerfile)?.[1];
}

/**
 * The image's OCI labels (issue 22, item 8) say what package.json says, so that a plain
 * `docker build` labels the image right; .ci/container checks the labels of the built image.
 */
describe('Dockerfile: the image says what it is', () => {
  it("should label the image with package.json's version and licence by default", () => {
    expect({ VERSION: argDefault('VERSION'), LICENSES: argDefault('LICENSES') }).toEqual({
      VERSION: pkg.version,
      LICENSES: pkg.license,
    });
  });

  it('should carry the four OCI labels, and the revision into the service (BUILD_REVISION)', () => {
    for (const label of ['version', 'revision', 'source', 'licenses']) {
      expect(dockerfile).toMatch(new RegExp(`org\\.opencontainers\\.image\\.${label}="\\$\\{`));
    }
    expect(dockerfile).toMatch(/^ENV BUILD_REVISION=\$\{REVISION\}$/m);
  });

  it("should open the management port to the pod's address, which the code's default does not (decision 44.6)", () => {
    expect(dockerfile).toMatch(/^\s+MANAGEMENT_HOST=0\.0\.0\.0 \\$/m);
  });
});

/**
 * Issue 46, item 4: an image built from a clone was labelled revision "unknown". The build script
 * passes git's revision and origin (without credentials) as the build arguments.
 */
describe('tools/image/build.sh: the revision and source from git', () => {
  const SCRIPT = path.join(ROOT, 'tools/image/build.sh');
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pos-api-image-build-'));
    mkdirSync(path.join(dir, 'tools/image'), { recursive: true });
    copyFileSync(SCRIPT, path.join(dir, 'tools/image/build.sh'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The build command the script runs (the engine replaced by echo). */
  const buildCommand = (env: Record<string, string> = {}) =>
    execFileSync('sh', [path.join(dir, 'tools/image/build.sh'), '-t', 'pos-read-api'], {
      env: { PATH: process.env.PATH, CONTAINER_ENGINE: 'echo', ...env },
      encoding: 'utf8',
    }).trim();

  it("should pass the checkout's commit and origin, without the origin's credentials", () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();
    git('init', '-q');
    git(
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@example.com',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'x',
    );
    git('remote', 'add', 'origin', 'https://someone:a-token@git.example.com/pos/pos-read-api.git');
    expect(buildCommand()).toBe(
      `build --build-arg REVISION=${git('rev-parse', 'HEAD')} ` +
        '--build-arg SOURCE=https://git.example.com/pos/pos-read-api.git -t pos-read-api .',
    );
  });

  it('should say unknown outside a checkout, and let REVISION and SOURCE win', () => {
    expect(buildCommand()).toBe(
      'build --build-arg REVISION=unknown --build-arg SOURCE=unknown -t pos-read-api .',
    );
    expect(buildCommand({ REVISION: 'abc123', SOURCE: 'https://example.com/x' })).toBe(
      'build --build-arg REVISION=abc123 --build-arg SOURCE=https://example.com/x -t pos-read-api .',
    );
  });
});
