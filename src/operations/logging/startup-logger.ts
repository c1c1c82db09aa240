import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Level } from 'pino';
import type { AppConfig } from '../../config/app-config';
import { logDestination, loggerOptions, logSerializers } from './logger.params';
import { QuietStartupLogger } from './nest-logger';
import { usesPrettyLogs } from './pretty-logs';

/** Nest's lines as the app's JSON lines: `context`, `msg`, an error under `err`. */
class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: pino.Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const rest = params.filter((param) => param !== undefined);
    const context = typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
      return;
    }
    // Nest passes a stack as the parameter before the context (`logger.error(msg, stack)`).
    const stack = rest.find((param) => typeof param === 'string');
    if (stack) fields.err = { stack };
    this.logger[level](fields, String(message));
  }
}

/**
 * The logger of Nest's own lines until the app's (nestjs-pino) takes over, above all when the app
 * cannot be built (an unreadable key, an unreachable database): then Nest writes its buffered lines
 * and the failure with this one, JSON lines like the app's, instead of its coloured console lines.
 * Undefined where the logs are pretty (a developer's terminal): Nest's console suits it.
 */
export function startupLogger(
  config: AppConfig,
  destination?: DestinationStream,
): LoggerService | undefined {
  if (!destination && usesPrettyLogs(config)) return undefined;
  const { level, base, timestamp, formatters, messageKey, redact, hooks } = loggerOptions(config);
  const logger = pino(
    {
      level,
      base,
      timestamp,
      formatters,
      messageKey,
      redact,
      hooks,
      serializers: { err: (err: Error) => logSerializers.err(pino.stdSerializers.err(err)) },
    },
    destination ?? logDestination(config) ?? pino.destination({ dest: 1, sync: true }),
  );
  return new QuietStartupLogger(new PinoNestLogger(logger));
}
