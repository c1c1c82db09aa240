import { randomUUID } from 'node:crypto';
import { RequestMethod } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import pino, { type DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import type { WithClientKey } from '../../auth/client-key';
import type { WithLoggedUser } from './request-user';
import { currentTraceId, tracingEnabled } from '../../common/tracing/spans';
import { AppConfig } from '../../config/app-config';
import { REDACTED, scrubLogLine } from './log-scrubber';

/** Structured fields that are always censored (the scrubber catches anything else). */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'req.body.password',
  'req.body.token',
  'password',
  'token',
  'password_hash',
  'passwordHash',
  '*.password',
  '*.token',
  '*.password_hash',
  '*.passwordHash',
];

/** Error fields never logged: mysql2 puts the SQL with its values inlined in `sql`. */
const ERROR_FIELDS_DROPPED = new Set(['parameters', 'sql']);

function withoutValues(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withoutValues(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!ERROR_FIELDS_DROPPED.has(key)) out[key] = withoutValues(v, depth + 1);
  }
  return out;
}

export const logSerializers = {
  // The request line: no headers, no body (nothing a client typed beyond method and URL).
  req: (req: { id?: unknown; method?: string; url?: string; remoteAddress?: string }) => ({
    id: req.id,
    method: req.method,
    url: req.url,
    remoteAddress: req.remoteAddress,
  }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
  // pino-http hands over the error already serialized (type, message, stack, own fields).
  err: (err: unknown) => withoutValues(err),
};

function traceFields(): { traceId?: string } {
  const traceId = currentTraceId();
  return traceId ? { traceId } : {};
}

/** pino-http options: JSON lines, the request id of Fastify, redaction everywhere. */
export function loggerOptions(config: AppConfig): Options {
  const successLevel =
    pino.levels.values[config.LOG_LEVEL] <= pino.levels.values.info ? 'info' : 'silent';
  return {
    level: config.LOG_LEVEL,
    base: { service: 'pos-read-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    messageKey: 'msg',
    // @fastify/middie copies Fastify's request id (X-Request-Id or a UUID) onto the raw request.
    genReqId: (req: IncomingMessage) => req.id ?? randomUUID(),
    // Every line logged while serving a request carries `requestId`; the full request once.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    // Below 5xx a request's line is at info; when LOG_LEVEL leaves info out, 'silent' tells
    // pino-http so before it builds the line's child logger, object and message for nothing.
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
      err || res.statusCode >= 500 ? 'error' : successLevel,
    customSuccessMessage: (req: IncomingMessage, res: ServerResponse) =>
      `${req.method} ${res.statusCode}`,
    customErrorMessage: (req: IncomingMessage, res: ServerResponse) =>
      `${req.method} ${res.statusCode} failed`,
    // A 5xx line needs no made-up "failed with status code" error: the filter logged the real one.
    customErrorObject: (_req: IncomingMessage, _res: ServerResponse, _err: Error, val: object) => {
      const rest: Record<string, unknown> = { ...val };
      delete rest.err;
      return rest;
    },
    // The request's line names its client as the per-client limits count it (auth/client-key.ts:
    // an IPv6 address's network, the address TRUST_PROXY resolved): known once Fastify's hooks ran.
    // An authenticated request's line also names its caller (request-user.ts), set once the
    // bearer guard verified the token: at the request's end, not at its start.
    customProps: (req: IncomingMessage & WithClientKey & WithLoggedUser) => ({
      client: req.clientKey,
      ...(req.loggedUser ? { user: req.loggedUser } : {}),
    }),
    serializers: logSerializers,
    // With tracing on, every line written while serving a request carries its trace id.
    ...(tracingEnabled() ? { mixin: () => traceFields() } : {}),
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: { streamWrite: scrubLogLine },
  };
}

/**
 * Standard output, or LOG_FILE when set (written synchronously: nothing lost on exit), created
 * readable by the service's user alone (0600): log lines name users and addresses. A file that
 * exists keeps its mode.
 */
export function logDestination(config: AppConfig): DestinationStream | undefined {
  if (!config.LOG_FILE) return undefined;
  return pino.destination({ dest: config.LOG_FILE, mkdir: true, sync: true, mode: 0o600 });
}

/**
 * nestjs-pino parameters for LoggerModule.forRootAsync. `destination`, when given by the code
 * that builds the app (the end-to-end tests' in-memory capture), replaces LOG_FILE / stdout.
 */
export function loggerParams(config: AppConfig, given?: DestinationStream): Params {
  const destination = given ?? logDestination(config);
  const options = loggerOptions(config);
  return {
    pinoHttp: destination ? [options, destination] : options,
    // Every route, in path-to-regexp 8's syntax (Nest 11): nestjs-pino's default `*` is the
    // legacy form, which Nest converts with a warning on every start (issue 22, item 5).
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
  };
}
