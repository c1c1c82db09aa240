import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const PACKAGE_NAME = 'pos-read-api';

interface PackageJson {
  name?: string;
  version?: string;
  engines?: { node?: string };
}

/**
 * The project's package.json, found from this file upward: `src/common/` in the sources,
 * `dist/src/common/` in a build and in the image (which copies package.json).
 */
export function projectPackage(from = __dirname): PackageJson {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
      if (pkg.name === PACKAGE_NAME) return pkg;
    } catch {
      // no package.json here: one level up
    }
    if (path.dirname(dir) === dir) return {};
  }
}

/** The version of the project's package.json. */
export function packageVersion(from = __dirname): string {
  return projectPackage(from).version ?? '0.0.0-unknown';
}

/**
 * A hash of the code under `root`: every .js and .ts file but specs and declarations, by path
 * and content, in path order. The running service's own code (`src/`, or `dist/src/` in a build).
 */
export function codeHash(root: string): string {
  const hash = createHash('sha256');
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => /\.(js|ts)$/.test(f) && !/\.(spec|e2e-spec|d)\.(js|ts)$/.test(f))
    .map((f) => f.split(path.sep).join('/'))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

let fingerprint: string | undefined;

/**
 * What the running build is, without BUILD_REVISION: the package version, a hash of its code
 * and the version of the time-zone data (process.versions.tz) that dates are computed with.
 * Computed once per process (reading the code takes some milliseconds).
 */
export function buildFingerprint(): string {
  fingerprint ??= [
    packageVersion(),
    codeHash(path.resolve(__dirname, '..')),
    `tz${process.versions.tz ?? 'unknown'}`,
  ].join('-');
  return fingerprint;
}
