import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/load-config';
import { exitOnSignals } from './operations/graceful-shutdown';
import { usesPrettyLogs } from './operations/logging/pretty-logs';
import { startupBanner } from './operations/logging/startup-banner';
import { managementExposureWarning } from './operations/management-exposure';
import { ManagementServer } from './operations/management.server';

/** A demo user the start-up output names (tools/seed fills them; the service knows none). */
export interface DemoUserNote {
  username: string;
  password: string;
  note: string;
}

/**
 * Starts the service. `node dist/src/main.js` runs it with no demo; `npm start`
 * (tools/seed/start-development.ts) fills the embedded demo database first and passes its users,
 * so the start-up output names them.
 */
export async function bootstrap(demoUsers: readonly DemoUserNote[] = []): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  await app.listen({ port: config.PORT, host: config.HOST });
  exitOnSignals(app, config);
  const logger = new Logger('Bootstrap');
  const managementPort = await app
    .get(ManagementServer)
    .listen(config.MANAGEMENT_PORT, config.MANAGEMENT_HOST);
  const url = `http://localhost:${config.PORT}`;
  const exposure = managementExposureWarning(config, managementPort);
  if (exposure) logger.warn(exposure);
  if (usesPrettyLogs(config)) {
    // A developer's terminal: one banner at the end instead of the lines below.
    process.stdout.write(
      startupBanner({
        baseUrl: url,
        managementPort,
        appEnv: config.APP_ENV,
        embeddedDataDir: config.usesEmbeddedDatabase ? config.DATA_DIR : undefined,
        demoUsers,
      }),
    );
    return;
  }
  logger.log(
    `Health and metrics on port ${managementPort} (/health/live, /health/ready, /metrics)`,
  );
  logger.log(`POS read API listening on ${url}/api/v1.0 (APP_ENV=${config.APP_ENV})`);
  if (config.usesEmbeddedDatabase) {
    logger.log(
      `Embedded SQLite database in ${config.DATA_DIR} (set DATABASE_URL for MySQL/MariaDB)`,
    );
    if (demoUsers.length > 0) {
      for (const user of demoUsers) {
        logger.log(`Demo user ${user.username} / ${user.password}: ${user.note}`);
      }
      logger.log(
        `Try: curl -s -X POST ${url}/api/v1.0/Token -H 'Content-Type: application/json' -d '{"username":"${demoUsers[0].username}","password":"${demoUsers[0].password}"}'`,
      );
    }
  }
}

/** Ends the process with a clear message, not a stack trace, when the service cannot start. */
export function exitOnStartFailure(error: unknown): never {
  // A configuration problem is a clear message, not a stack trace.
  const message =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error);
  process.stderr.write(`The service could not start: ${message}\n`);
  process.exit(1);
}

if (require.main === module) bootstrap().catch(exitOnStartFailure);
