import { startFailureLine } from './start-failure';

const NOW = new Date('2026-11-28T12:00:00.000Z');

describe(startFailureLine.name, () => {
  it.each([
    [{ LOG_FORMAT: 'json', APP_ENV: 'development' }, true],
    [{}, false],
    [{ APP_ENV: 'production' }, true],
    [{ APP_ENV: 'development', LOG_FILE: '/var/log/api.log' }, true],
  ])(
    'should write one JSON line on standard output where the logs are JSON (%p, TTY %p)',
    (env, tty) => {
      expect(startFailureLine('no key', env, tty, NOW)).toEqual({
        stream: 'stdout',
        text:
          '{"level":"fatal","time":"2026-11-28T12:00:00.000Z","service":"pos-read-api",' +
          '"context":"Bootstrap","msg":"The service could not start: no key"}\n',
      });
    },
  );

  it.each([
    [{ LOG_FORMAT: 'pretty' }, false],
    [{ APP_ENV: 'development' }, true],
    [{ APP_ENV: 'development', LOG_FORMAT: 'auto' }, true],
  ])('should write text on standard error where the logs are pretty (%p, TTY %p)', (env, tty) => {
    expect(startFailureLine('no key', env, tty, NOW)).toEqual({
      stream: 'stderr',
      text: 'The service could not start: no key\n',
    });
  });
});
