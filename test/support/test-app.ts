import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { generateKeyPairSync } from 'node:crypto';
import { createApp } from '../../src/app.factory';
import { AppConfig } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';
import { logDestination } from '../../src/operations/logging/logger.params';
import { alsoCapture, logCapture } from './log-capture';
import { TestDatabase } from './test-database';

/** One signing key for the whole test process, so tests can forge tokens with it. */
export const TEST_PRIVATE_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();
export const TEST_KEY_ID = 'test-key-1';

export interface TestApp {
  app: NestFastifyApplication;
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The validated configuration of a test app: test key, logs at debug level (into the spec's log
 * capture, see createTestApp), no demo, the test database.
 */
export function testConfig(
  database: Pick<TestDatabase, 'dataDir' | 'appDatabaseUrl'>,
  env: Record<string, string> = {},
): AppConfig {
  return loadConfig({
    APP_ENV: 'development',
    DATA_DIR: database.dataDir,
    DEMO_SEED: 'false',
    LOG_LEVEL: 'debug',
    JWT_PRIVATE_KEY: TEST_PRIVATE_KEY,
    JWT_KEY_ID: TEST_KEY_ID,
    ...(database.appDatabaseUrl ? { DATABASE_URL: database.appDatabaseUrl } : {}),
    ...env,
  });
}

/** Listens on a free loopback port; returns the base URL. */
export async function listenOnFreePort(app: NestFastifyApplication): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

/**
 * Builds the service for a test: its log goes to the spec file's in-memory capture (and to
 * LOG_FILE too when the spec sets one), checked for secrets after the spec file
 * (no-secrets-in-logs.ts).
 */
export function createTestApp(config: AppConfig): Promise<NestFastifyApplication> {
  const logFile = logDestination(config);
  return createApp(config, { logDestination: logFile ? alsoCapture(logFile) : logCapture });
}

/** Starts the real service on a free port against a test database, speaking HTTP. */
export async function startTestApp(
  database: Pick<TestDatabase, 'dataDir' | 'appDatabaseUrl'>,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const app = await createTestApp(testConfig(database, env));
  return { app, baseUrl: await listenOnFreePort(app), close: () => app.close() };
}

/**
 * One app for the enclosing describe block: started in beforeAll, closed in afterAll. Read
 * `.current` inside the tests.
 */
export function appForBlock(
  ctx: { readonly db: Pick<TestDatabase, 'dataDir' | 'appDatabaseUrl'> },
  env: Record<string, string> = {},
): { readonly current: TestApp } {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, env);
  });
  afterAll(async () => {
    await app?.close();
  });
  return {
    get current(): TestApp {
      if (!app) throw new Error('test app not started');
      return app;
    },
  };
}
