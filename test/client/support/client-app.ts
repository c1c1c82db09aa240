import { PosReadClient, PosReadClientOptions } from '../../../packages/client/src/index';
import { spawnService } from '../../support/service-process';
import { TestDatabase } from '../../support/test-database';
import { newEcPrivateKey } from '../../support/tokens';
import { CLIENT_BASE_URL, Wire } from './wire';

/** Events the client logged, as the lines a logger would write. */
export type LogLines = string[];

/** A client of the package under test whose requests go through `wire`. */
export function clientOn(
  wire: Wire,
  user: { username: string; password: string },
  options: Partial<PosReadClientOptions> = {},
  log: LogLines = [],
): PosReadClient {
  return new PosReadClient({
    baseUrl: CLIENT_BASE_URL,
    username: user.username,
    password: user.password,
    fetch: wire.fetch,
    logger: (event, fields) => log.push(JSON.stringify({ event, ...fields })),
    ...options,
  });
}

/** One cursor secret for every instance of a spec, so a cursor stays valid across them. */
export const CURSOR_SECRET = 'client-e2e-cursor-secret-0123456789abcdef';

/**
 * A second instance of the service on the same database, in a process of its own, signing and
 * verifying with a key of its own (and not the test key): every token of the in-process test
 * app is refused there, as after a key rotation that did not keep the old key. (In one process
 * two apps would share passport's strategy, so it has to be another process.)
 */
export async function startRotatedInstance(
  database: Pick<TestDatabase, 'dataDir' | 'appDatabaseUrl'>,
  env: Record<string, string> = {},
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const service = await spawnService({
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.appDatabaseUrl,
    JWT_PRIVATE_KEY: newEcPrivateKey(),
    JWT_KEY_ID: 'rotated-key',
    CURSOR_SECRET,
    ...env,
  });
  return {
    baseUrl: service.baseUrl,
    close: async () => {
      service.child.kill('SIGTERM');
      await service.exited;
    },
  };
}
