import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { newestMtimeMs } from '../support/service-process';
import { ROOT } from './readme-commands';

const CLIENT = path.join(ROOT, 'packages/client');

/**
 * packages/client, refusing a missing or stale build (npm test builds it first, `pretest`):
 * the specs test what an integrator installs, dist/.
 */
export function builtClient(): string {
  const built = path.join(CLIENT, 'dist/esm/index.js');
  if (!existsSync(built) || statSync(built).mtimeMs < newestMtimeMs(path.join(CLIENT, 'src'))) {
    throw new Error(
      `${built} is missing or older than packages/client/src: run npm run client:build`,
    );
  }
  return CLIENT;
}
