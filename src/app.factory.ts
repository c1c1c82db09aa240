import { Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Logger as PinoLogger } from 'nestjs-pino';
import { AppModule, AppOptions } from './app.module';
import { recordClientKeys } from './auth/client-key';
import { recheckRevocationsBeforeAnswers } from './auth/revocation-recheck';
import { TokenRevocations } from './auth/token-revocations';
import { enforceRequestDeadlines } from './common/deadline/request-deadline';
import { answerClientError } from './common/errors/client-error.handler';
import { answerShedRequest } from './common/errors/problem-details.filter';
import { ApiFastifyAdapter } from './common/http/api-fastify-adapter';
import { serverTimeouts } from './common/http/server-timeouts';
import { registerCompression } from './common/http/compression';
import { sendLinkedPagesHeadersFirst } from './common/http/headers-first';
import { boundJsonNesting } from './common/http/json-depth';
import { neverStoreApiAnswers } from './common/http/no-store';
import { createValidationPipe } from './common/http/validation.pipe';
import { writeNextPageLinks } from './common/http/next-page-link';
import { API_PREFIX } from './config/api-prefix';
import { AppConfig } from './config/app-config';
import { BODY_LIMIT_BYTES } from './config/limits';
import { refuseRequestsWhileDraining } from './operations/graceful-shutdown';
import { QuietStartupLogger } from './operations/logging/nest-logger';
import { recordCallersForLogs } from './operations/logging/request-user';
import { startupLogger } from './operations/logging/startup-logger';
import { ReadinessService } from './operations/health/readiness.service';
import { setupDeveloperPortal } from './openapi/developer-portal';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A client's X-Request-Id when it is sane, else a new one. */
function requestIdOf(req: IncomingMessage): string {
  const header = req.headers['x-request-id'];
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

const LEVELS: Record<string, LogLevel[]> = {
  silent: [],
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/** Builds the service for a configuration: used by main.ts and by the end-to-end tests. */
export async function createApp(
  config: AppConfig,
  options: AppOptions = {},
): Promise<NestFastifyApplication> {
  const adapter = new ApiFastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    genReqId: requestIdOf,
    requestIdHeader: false,
    clientErrorHandler: answerClientError,
    // Requests arriving while the service drains get our 503 problem (refuseRequestsWhileDraining).
    return503OnClosing: false,
    ...serverTimeouts(config),
  });
  // Nest's lines until the app's logger takes over (a failed start included): JSON like the rest.
  const early = startupLogger(config, options.logDestination);
  if (early) Logger.overrideLogger(early);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, options),
    adapter,
    {
      logger: LEVELS[config.LOG_LEVEL],
      abortOnError: false,
      // Start-up messages wait for the JSON logger (operations/logging) instead of the console.
      bufferLogs: true,
      // JSON only: Fastify's own JSON parser; no form or text bodies (415 for those).
      bodyParser: false,
    },
  );
  app.useLogger(new QuietStartupLogger(app.get(PinoLogger)));
  // Every controller route is under /api/v1.0; the portal (/docs) registers its routes on
  // Fastify directly and the health and metrics routes are on the management port.
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  // Every API route's deadline (REQUEST_DEADLINE_MS, decision 27.3); its onSend hook, which ends
  // the clock once the answer leaves, comes before the others (compression waits on a thread).
  enforceRequestDeadlines(
    app.getHttpAdapter().getInstance(),
    config.REQUEST_DEADLINE_MS,
    `/${API_PREFIX}/`,
    answerShedRequest,
  );
  // Before any route is added (the portal's too), so that every route is compressed.
  registerCompression(app, config);
  setupDeveloperPortal(app, config);
  const fastify = app.getHttpAdapter().getInstance();
  recordClientKeys(fastify, config.CLIENT_IPV6_PREFIX_LENGTH);
  recordCallersForLogs(fastify);
  neverStoreApiAnswers(fastify);
  // Before the Link hook: a refused answer gets no next page's link.
  recheckRevocationsBeforeAnswers(fastify, app.get(TokenRevocations));
  writeNextPageLinks(fastify);
  // After the Link hook, whose header it looks for (decision 29.15).
  if (config.COMPRESSION) sendLinkedPagesHeadersFirst(fastify);
  fastify.removeContentTypeParser('text/plain');
  boundJsonNesting(fastify);
  // Errors raised by Fastify itself (body parsing, size, content type) reach the global
  // ProblemDetailsFilter through the error handler Nest installs.
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', String(request.id));
  });
  // No enableShutdownHooks(): main.ts handles SIGTERM with a drain (operations/graceful-shutdown).
  refuseRequestsWhileDraining(fastify, app.get(ReadinessService));
  return app;
}
