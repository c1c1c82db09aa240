import 'reflect-metadata';
import { loadConfig } from '../../src/config/load-config';
import { bootstrap, exitOnStartFailure } from '../../src/main';
import { DEMO_USERS } from './demo-data';
import { fillDemoDatabase } from './demo-database';

/**
 * `npm start`: the service in development mode unless APP_ENV says otherwise, so a newcomer's
 * `npm ci && npm start` runs the embedded demo. On the embedded database (no DATABASE_URL) and
 * with DEMO_SEED (default true), an empty database is first filled with the demo, then the
 * service starts and names the demo users. `node dist/src/main.js` (the image) seeds nothing.
 */
async function startDevelopment(): Promise<void> {
  process.env.APP_ENV ??= 'development';
  const config = loadConfig();
  const demo = config.usesEmbeddedDatabase && config.DEMO_SEED;
  const filled = demo ? await fillDemoDatabase(config) : undefined;
  await bootstrap({ users: demo ? DEMO_USERS : [], filled });
}

startDevelopment().catch(exitOnStartFailure);
