import { INestApplication, Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import { serviceUnavailable } from '../common/errors/problem';
import { AppConfig } from '../config/app-config';
import { ReadinessService } from './health/readiness.service';
import { RequestTracker } from './metrics/request-tracker';

export interface ShutdownResult {
  /** Requests still running when SHUTDOWN_TIMEOUT_MS ran out (their connections were cut). */
  cutRequests: number;
}

const IDLE_SWEEP_MS = 100;
/** Extra time after the drain deadline for closing the pool and Redis before a hard exit. */
const HARD_EXIT_GRACE_MS = 5_000;
/** A repeat of the first signal within this is the same signal delivered twice (exitOnSignals). */
const DUPLICATE_SIGNAL_MS = 500;

/** Seconds a client is told to wait before retrying a request refused by the drain. */
const DRAIN_RETRY_AFTER_SECONDS = 1;

/**
 * The answer to a request that arrives while the service drains (on a kept-alive connection):
 * 503 problem+json with Retry-After and the request id, like every other error, and the
 * connection closed. Fastify's own `return503OnClosing` answer (plain JSON, no request id, no
 * Retry-After) must be off. Installed as a preParsing hook, after the request logger and the
 * metrics have seen the request. Fastify closing (app.close() without closeGracefully) drains too.
 */
export function refuseRequestsWhileDraining(
  fastify: FastifyInstance,
  readiness: ReadinessService,
): void {
  fastify.addHook('preClose', (done) => {
    readiness.startDraining();
    done();
  });
  fastify.addHook('preParsing', (_request, _reply, payload, done) => {
    if (!readiness.isDraining) return done(null, payload);
    done(
      serviceUnavailable(
        'This instance is shutting down; retry the request.',
        DRAIN_RETRY_AFTER_SECONDS,
        { Connection: 'close' },
      ),
    );
  });
}

/**
 * Stops the service without dropping work: readiness turns 503 at once, the API stops
 * accepting connections (new requests on kept-alive ones get a 503 problem and Connection: close,
 * see refuseRequestsWhileDraining), the
 * requests in flight finish, then the database pool, Redis and the management port close.
 * Requests still running after `timeoutMs` have their connections cut.
 */
export async function closeGracefully(
  app: INestApplication,
  timeoutMs: number,
): Promise<ShutdownResult> {
  const logger = new Logger('Shutdown');
  const tracker = app.get(RequestTracker);
  app.get(ReadinessService).startDraining();
  const server = app.getHttpServer() as Server;
  logger.log(`Draining: ${tracker.inFlight} request(s) in flight, waiting up to ${timeoutMs} ms`);
  // Connections become idle as their last response is sent: close them so the drain ends then.
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  let cutRequests = 0;
  const deadline = setTimeout(() => {
    cutRequests = tracker.inFlight;
    if (cutRequests > 0) {
      logger.warn(`Shutdown timeout: cutting ${cutRequests} request(s) still in flight`);
    }
    server.closeAllConnections();
  }, timeoutMs);
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
    clearInterval(sweep);
  }
  logger.log('Stopped');
  return { cutRequests };
}

/**
 * SIGTERM / SIGINT: graceful close, then exit 0 (1 when requests had to be cut or closing
 * failed). A second signal, or closing that outlives the deadline, exits at once. The same
 * signal again within DUPLICATE_SIGNAL_MS is the first one delivered twice (Ctrl-C reaches both
 * npm and the service, and npm forwards it), not an operator insisting: ignored.
 */
export function exitOnSignals(app: INestApplication, config: AppConfig): void {
  const logger = new Logger('Shutdown');
  let first: { signal: NodeJS.Signals; at: number } | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (first) {
      if (signal === first.signal && Date.now() - first.at < DUPLICATE_SIGNAL_MS) return;
      logger.warn(`${signal} received again: exiting now`);
      process.exit(1);
    }
    first = { signal, at: Date.now() };
    logger.log(`${signal} received: shutting down`);
    setTimeout(() => {
      logger.error('Shutdown did not finish in time: exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + HARD_EXIT_GRACE_MS).unref();
    closeGracefully(app, config.SHUTDOWN_TIMEOUT_MS).then(
      ({ cutRequests }) => process.exit(cutRequests > 0 ? 1 : 0),
      (error: unknown) => {
        logger.error({ err: error }, 'Shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
