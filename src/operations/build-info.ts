import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AppConfig } from '../config/app-config';

/** What is running: shown by /health, the start-up line and the pos_api_build_info metric. */
export interface BuildInfo {
  /** package.json's version (semver). */
  version: string;
  /** The commit of the build (BUILD_REVISION; the image sets it), or `unknown`. */
  revision: string;
  /** The Node.js release running it (process.version). */
  node: string;
}

const PACKAGE_NAME = 'pos-read-api';

interface PackageJson {
  name?: string;
  version?: string;
  engines?: { node?: string };
}

/**
 * The project's package.json, found from this file upward: `src/operations/` in the sources,
 * `dist/src/operations/` in a build and in the image (which copies package.json).
 */
function projectPackage(from = __dirname): PackageJson {
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

/** package.json's `engines.node`, the Node releases the project supports, if it says. */
export function supportedNodeRange(): string | undefined {
  return projectPackage().engines?.node;
}

let version: string | undefined;

export function buildInfo(config: Pick<AppConfig, 'BUILD_REVISION'>): BuildInfo {
  version ??= projectPackage().version ?? '0.0.0-unknown';
  return { version, revision: config.BUILD_REVISION ?? 'unknown', node: process.version };
}
