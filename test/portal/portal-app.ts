import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppEnv } from '../../src/config/app-config';
import { createTestApp, listenOnFreePort, testConfig } from '../support/test-app';
import type { TestDatabase } from '../support/test-database';

/**
 * Starts the service with a given APP_ENV on the embedded database. APP_ENV is set after the
 * configuration is validated: production normally requires DATABASE_URL (a rule tested with the
 * configuration), and the portal is the only part of these specs that reads APP_ENV.
 */
export async function startPortalApp(
  database: TestDatabase,
  appEnv: AppEnv,
): Promise<{ app: NestFastifyApplication; baseUrl: string }> {
  const config = testConfig({ dataDir: database.dataDir });
  config.APP_ENV = appEnv;
  const app = await createTestApp(config);
  return { app, baseUrl: await listenOnFreePort(app) };
}
