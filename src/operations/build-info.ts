import { packageVersion, projectPackage } from '../common/build-fingerprint';
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

/** package.json's `engines.node`, the Node releases the project supports, if it says. */
export function supportedNodeRange(): string | undefined {
  return projectPackage().engines?.node;
}

let version: string | undefined;

export function buildInfo(config: Pick<AppConfig, 'BUILD_REVISION'>): BuildInfo {
  version ??= packageVersion();
  return { version, revision: config.BUILD_REVISION ?? 'unknown', node: process.version };
}
