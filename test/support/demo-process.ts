import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ServiceProcess, spawnService, stopService } from './service-process';

/**
 * The built service as `npm start` runs it for someone trying it (node dist/tools/seed/start-development.js):
 * no APP_ENV, no DATABASE_URL, no signing key, DEMO_SEED by default, the demo database in dataDir.
 */
export function spawnDemoAsNpmStart(dataDir: string, root?: string): Promise<ServiceProcess> {
  return spawnService(
    {
      APP_ENV: undefined,
      DATA_DIR: dataDir,
      DEMO_SEED: undefined,
      JWT_PRIVATE_KEY: undefined,
      JWT_KEY_ID: undefined,
    },
    { built: true, entry: 'tools/seed/start-development.js', startTimeoutMs: 120_000, root },
  );
}

/**
 * Starts the demo as `npm start` serves it before the enclosing block's tests (on a fresh
 * DATA_DIR, so it seeds), and stops it after them. Call it first in the block: its beforeAll
 * runs before the block's own. Returns the running service.
 */
export function useDemoAsNpmStart(): () => ServiceProcess {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pos-api-demo-'));
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    service = await spawnDemoAsNpmStart(dataDir);
  }, 150_000);
  afterAll(async () => {
    await stopService(service);
    rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!service) throw new Error('the demo did not start');
    return service;
  };
}
