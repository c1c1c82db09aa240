import type { LoggerService } from '@nestjs/common';

/**
 * Contexts of Nest's start-up chatter: one line per module initialised and per route mapped
 * (some 35 lines before anything a person needs). Written at debug level instead of info.
 */
const NEST_STARTUP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** The app's logger (nestjs-pino's) with Nest's module and route listing moved to debug. */
export class QuietStartupLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && NEST_STARTUP_CONTEXTS.has(context) && this.inner.debug) {
      this.inner.debug(message, ...optionalParams);
    } else {
      this.inner.log(message, ...optionalParams);
    }
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.error(message, ...optionalParams);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.warn(message, ...optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.debug?.(message, ...optionalParams);
  }

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.verbose?.(message, ...optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.fatal?.(message, ...optionalParams);
  }
}
