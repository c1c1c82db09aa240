import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory';
import { AppEnv, loadConfig } from '../../src/config/app-config';
import { TEST_KEY_ID, TEST_PRIVATE_KEY } from '../support/test-app';
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
  const config = loadConfig({
    APP_ENV: 'development',
    DATA_DIR: database.dataDir,
    DEMO_SEED: 'false',
    LOG_LEVEL: 'silent',
    JWT_PRIVATE_KEY: TEST_PRIVATE_KEY,
    JWT_KEY_ID: TEST_KEY_ID,
  });
  config.APP_ENV = appEnv;
  const app = await createApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { app, baseUrl: `http://127.0.0.1:${address.port}` };
}
