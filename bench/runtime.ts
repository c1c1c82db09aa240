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
 *   And a 32 MB semi-space: Node 24's V8 lets each of the young generation's two semi-spaces grow
 *   to 64 MB (Node 20's: 16 MB) whatever the old generation's limit, 128 MB of young generation
 *   instead of 32 and most of why Node 24's service was resident at ~300 MB against Node 20's
 *   ~150. 32 MB keeps the CPU per page of 64 MB; 16 MB cost 18 to 50% more on a sales page
 *   (three times the GC time: more scavenges, each promoting the pages in flight).
 * - GLIBC_TUNABLES: one malloc arena for every thread (decision 29.14). The 19 MiB block each
 *   argon2id verification allocates on a libuv thread is then kept and reused by the next
 *   verification, whichever thread runs it: one block for the life of the process (~19 MB), not
 *   one per libuv thread (~80 MB, glibc's default), and not mapped, faulted in, zeroed and
 *   unmapped for every verification (the former mmap_threshold=131072: a verification took
 *   twice as long, and sign-ins a second fell by a third).
 */
export const PRODUCTION_RUNTIME: Readonly<Record<string, string>> = {
  NODE_OPTIONS: '--max-old-space-size=512 --max-semi-space-size=32',
  GLIBC_TUNABLES: 'glibc.malloc.arena_max=1',
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
