import 'reflect-metadata';
import { ConfigError, loadConfig } from '../../src/config/load-config';
import { fillDemoDatabase } from './demo-database';

/**
 * `npm run seed:demo`: fills the embedded database of DATA_DIR with the demo, as `npm start` does
 * on its first start, without starting the service. For a container: the image holds no seed,
 * so its demo runs on a DATA_DIR filled this way and mounted (docs/operations.md, "Docker").
 */
async function main(): Promise<number> {
  process.env.APP_ENV ??= 'development';
  const config = loadConfig(process.env, { signsTokens: false });
  if (!config.usesEmbeddedDatabase) {
    console.error('seed:demo fills the embedded database of DATA_DIR: unset DATABASE_URL.');
    return 2;
  }
  const filled = await fillDemoDatabase(config);
  console.log(
    filled
      ? `Embedded demo database filled in ${config.DATA_DIR}: ${filled}`
      : `${config.DATA_DIR} already holds users: left as it is.`,
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `Filling the demo failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exitCode = 1;
  },
);
