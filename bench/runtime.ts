import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './processes';

/**
 * The process settings the service runs with in production, which the Dockerfile's runtime stage
 * must set (docs/performance.md, "Memory"). The benchmark starts the service and the baseline
 * with them, and says so when the Dockerfile does not set the same.
 *
 * - NODE_OPTIONS: a 512 MB heap limit. V8 sizes its heap from the machine's memory: on a host
 *   with gigabytes free it lets the old generation grow to 4× the live heap before a full
 *   collection, so resident memory under load rises past 250 MB although ~40 MB is live; with a
 *   512 MB limit it collects at ~1.4×. Far above the live heap, the limit itself is never near.
 * - GLIBC_TUNABLES: blocks from 128 KiB up always mmap'd, so the 19 MiB each argon2id
 *   verification allocates goes back to the system when done, instead of staying in the malloc
 *   arena of each of libuv's hashing threads (~80 MB for the life of the process).
 */
export const PRODUCTION_RUNTIME: Readonly<Record<string, string>> = {
  NODE_OPTIONS: '--max-old-space-size=512',
  GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=131072',
};

/** The settings of PRODUCTION_RUNTIME that the Dockerfile does not set to the same value. */
export function missingFromDockerfile(): string[] {
  const file = path.join(REPO_ROOT, 'Dockerfile');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return Object.entries(PRODUCTION_RUNTIME)
    .map(([name, value]) => `${name}=${value}`)
    .filter((setting) => {
      const [name, value] = setting.split(/=(.*)/s);
      return !text.includes(setting) && !text.includes(`${name}="${value}"`);
    });
}
