import { readFileSync } from 'node:fs';
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
