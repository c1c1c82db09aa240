import type { LoggerService } from '@nestjs/common';
import { loadConfig } from '../../config/load-config';
import { QuietStartupLogger } from './nest-logger';
import { prettyMessage, usesPrettyLogs } from './pretty-logs';

const config = (env: Record<string, string>) =>
  loadConfig({ APP_ENV: 'development', DEMO_SEED: 'false', ...env });

describe('usesPrettyLogs', () => {
  it('should pretty-print only in development on a terminal when LOG_FORMAT is auto', () => {
    expect(usesPrettyLogs(config({ APP_ENV: 'development' }), true)).toBe(true);
    expect(usesPrettyLogs(config({ APP_ENV: 'development' }), false)).toBe(false);
    expect(usesPrettyLogs(config({ APP_ENV: 'preproduction' }), true)).toBe(false);
  });

  it('should keep JSON lines in a LOG_FILE, and with LOG_FORMAT=json', () => {
    expect(usesPrettyLogs(config({ LOG_FILE: '/tmp/x.log' }), true)).toBe(false);
    expect(usesPrettyLogs(config({ LOG_FORMAT: 'json' }), true)).toBe(false);
    expect(usesPrettyLogs(config({ LOG_FORMAT: 'pretty', LOG_FILE: '/tmp/x.log' }), true)).toBe(
      false,
    );
  });

  it('should pretty-print without a terminal when LOG_FORMAT=pretty forces it', () => {
    expect(usesPrettyLogs(config({ LOG_FORMAT: 'pretty' }), false)).toBe(true);
  });

  it('should refuse an unknown LOG_FORMAT at start-up', () => {
    expect(() => config({ LOG_FORMAT: 'colourful' })).toThrow(/LOG_FORMAT/);
  });
});

describe('prettyMessage', () => {
  const format = (log: Record<string, unknown>) =>
    prettyMessage(log, 'msg', 'info', { colors: {} as never });

  it('should write a request as method, URL, status and duration on one line', () => {
    const log = { msg: 'GET 200', req: { method: 'GET', url: '/api/v1.0/sales' } };
    expect(format({ ...log, res: { statusCode: 200 }, durationMs: 12 })).toBe(
      'GET /api/v1.0/sales 200 12 ms',
    );
  });

  it('should prefix a message with its context', () => {
    expect(format({ msg: 'Stopped', context: 'Shutdown' })).toBe('[Shutdown] Stopped');
    expect(format({ msg: 'plain' })).toBe('plain');
  });
});

describe(QuietStartupLogger.name, () => {
  it("should write Nest's module and route listing at debug, everything else as it came", () => {
    const calls: string[] = [];
    const inner: LoggerService = {
      log: (m: string, c: string) => calls.push(`log ${c}: ${m}`),
      debug: (m: string, c: string) => calls.push(`debug ${c}: ${m}`),
      error: () => undefined,
      warn: () => undefined,
    };
    const logger = new QuietStartupLogger(inner);
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/api/v1.0/sales, GET} route', 'RouterExplorer');
    logger.log('Listening', 'Bootstrap');
    expect(calls).toEqual([
      'debug InstanceLoader: AppModule dependencies initialized',
      'debug RouterExplorer: Mapped {/api/v1.0/sales, GET} route',
      'log Bootstrap: Listening',
    ]);
  });
});
