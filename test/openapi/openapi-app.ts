import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppEnv } from '../../src/config/app-config';
import type { TestDatabase } from '../support/test-database';
import { createTestApp, testConfig } from '../support/test-app';

export interface RouteSeen {
  method: string;
  url: string;
}

/**
 * The app, initialised but not listening, with every route Nest registers recorded: the
 * document must describe each of them. APP_ENV is set after validation so that production
 * mode can run on the embedded database (only the portal reads APP_ENV in these specs).
 */
export async function createRecordedApp(
  database: TestDatabase,
  appEnv: AppEnv = 'development',
): Promise<{ app: NestFastifyApplication; routes: RouteSeen[] }> {
  const config = testConfig({ dataDir: database.dataDir });
  config.APP_ENV = appEnv;
  const app = await createTestApp(config);
  const routes: RouteSeen[] = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return { app, routes };
}
