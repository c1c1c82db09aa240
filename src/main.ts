// First: OpenTelemetry (when configured) patches http, mysql2 and ioredis before they load.
import './operations/tracing/start-tracing';
import { writeSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/load-config';
import { buildInfo, supportedNodeRange } from './operations/build-info';
import { exitOnSignals } from './operations/graceful-shutdown';
import { usesPrettyLogs } from './operations/logging/pretty-logs';
import { startFailureLine } from './operations/logging/start-failure';
import { startupBanner } from './operations/logging/startup-banner';
import { managementExposureWarning } from './operations/management-exposure';
import { ManagementServer } from './operations/management.server';
import { nodeEngineWarning } from './operations/node-engines';

/** The demo `npm start` filled (tools/seed; the service knows none): logged at start-up. */
export interface DemoNotes {
  users: ReadonlyArray<{ username: string; password: string; note: string }>;
  /** The summary of a fill made just before this start, if any. */
  filled?: string;
}

/**
 * Starts the service. `node dist/src/main.js` runs it with no demo; `npm start`
 * (tools/seed/start-development.ts) fills the embedded demo database first and passes its users
 * and the fill's summary, so the start-up output (the app's logger) names them.
 */
export async function bootstrap(demo: DemoNotes = { users: [] }): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  const demoUsers = demo.users;
  if (demo.filled) new Logger('Database').log(`Embedded demo database filled: ${demo.filled}`);
  await app.listen({ port: config.PORT, host: config.HOST });
  exitOnSignals(app, config);
  const logger = new Logger('Bootstrap');
  const managementPort = await app
    .get(ManagementServer)
    .listen(config.MANAGEMENT_PORT, config.MANAGEMENT_HOST);
  // The bound port, not the configured one: PORT=0 asks the system for any free port.
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://localhost:${port}`;
  const exposure = managementExposureWarning(config, managementPort);
  if (exposure) logger.warn(exposure);
  const unsupportedNode = nodeEngineWarning(config.APP_ENV, supportedNodeRange());
  if (unsupportedNode) logger.warn(unsupportedNode);
  const build = buildInfo(config);
  if (usesPrettyLogs(config)) {
    // A developer's terminal: one banner at the end instead of the lines below.
    process.stdout.write(
      startupBanner({
        baseUrl: url,
        managementPort,
        appEnv: config.APP_ENV,
        build,
        embeddedDataDir: config.usesEmbeddedDatabase ? config.DATA_DIR : undefined,
        demoUsers,
      }),
    );
    return;
  }
  logger.log(
    `Health and metrics on port ${managementPort} (/health/live, /health/ready, /metrics)`,
  );
  logger.log(
    `POS read API ${build.version} listening on ${url}/api/v1.0 (APP_ENV=${config.APP_ENV}, ` +
      `revision ${build.revision}, Node ${build.node})`,
  );
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

/**
 * Ends the process with a clear message, not a stack trace, when the service cannot start: a JSON
 * line where the logs are JSON (operations/logging/start-failure.ts).
 */
export function exitOnStartFailure(error: unknown): never {
  // A configuration problem is a clear message, not a stack trace.
  const message =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error);
  const { stream, text } = startFailureLine(message);
  // Synchronous: process.exit must not cut the line.
  writeSync(stream === 'stdout' ? 1 : 2, text);
  process.exit(1);
}

if (require.main === module) bootstrap().catch(exitOnStartFailure);
