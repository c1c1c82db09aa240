import { INestApplication, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { exitOnSignals } from './graceful-shutdown';
import { ReadinessService } from './health/readiness.service';
import { RequestTracker } from './metrics/request-tracker';

/** An app whose close never ends (a drain in progress), with what closeGracefully touches. */
function drainingApp(): INestApplication {
  const parts = new Map<unknown, unknown>([
    [RequestTracker, { inFlight: 0 }],
    [ReadinessService, { startDraining: () => undefined }],
  ]);
  return {
    get: (token: unknown) => parts.get(token),
    getHttpServer: () => ({
      closeIdleConnections: () => undefined,
      closeAllConnections: () => undefined,
    }),
    close: () => new Promise<void>(() => undefined),
  } as unknown as INestApplication;
}

/** Node hands a signal's listeners its name, as process.emit(name, name) does here. */
describe(exitOnSignals.name, () => {
  const signals = ['SIGTERM', 'SIGINT'] as const;
  let before: Map<string, NodeJS.SignalsListener[]>;
  let exit: jest.SpyInstance;
  let now: jest.SpyInstance;

  beforeEach(() => {
    // closeGracefully's sweep of idle connections runs until the app closes, which it never does.
    jest.useFakeTimers({ doNotFake: ['Date'] });
    before = new Map(signals.map((s) => [s, process.listeners(s)]));
    exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    exitOnSignals(drainingApp(), { SHUTDOWN_TIMEOUT_MS: 60_000 } as AppConfig);
  });
  afterEach(() => {
    for (const s of signals) {
      for (const listener of process.listeners(s)) {
        if (!before.get(s)?.includes(listener)) process.removeListener(s, listener);
      }
    }
    jest.restoreAllMocks();
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  it('should take the same signal again within 500 ms as the first delivered twice (a terminal and npm both send Ctrl-C)', () => {
    process.emit('SIGINT', 'SIGINT');
    now.mockReturnValue(1_000_499);
    process.emit('SIGINT', 'SIGINT');
    expect(exit).not.toHaveBeenCalled();
  });

  it('should exit at once on the same signal 500 ms later', () => {
    process.emit('SIGINT', 'SIGINT');
    now.mockReturnValue(1_000_500);
    process.emit('SIGINT', 'SIGINT');
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('should exit at once on another signal, however soon', () => {
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGINT', 'SIGINT');
    expect(exit).toHaveBeenCalledWith(1);
  });
});
