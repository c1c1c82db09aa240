import { startServiceProcess } from '../support/service-process';

jest.setTimeout(30_000);

describe('A bad configuration value stops the built service (node dist/src/main.js)', () => {
  it.each([
    ['PORT', 'abc'],
    ['APP_ENV', 'staging'],
    ['TRUST_PROXY', 'everyone'],
    ['LOGIN_MAX_FAILURES', '0'],
  ])(
    'should exit 1 with a message naming %s (=%s) on every line and no stack trace',
    async (name, value) => {
      const service = await startServiceProcess({ [name]: value }, { built: true });
      expect(await service.exited).toEqual({ code: 1, signal: null });
      const output = service.output();
      expect(output).toMatch(
        new RegExp(
          `^The service could not start: Invalid configuration:\\n(  - ${name}: [^\\n]+\\n)+$`,
        ),
      );
      expect(output).not.toMatch(/^\s+at /m);
    },
  );

  it('should exit 1 naming DATABASE_URL when APP_ENV=production has none', async () => {
    const service = await startServiceProcess({ APP_ENV: 'production' }, { built: true });
    expect(await service.exited).toEqual({ code: 1, signal: null });
    expect(service.output()).toBe(
      'The service could not start: Invalid configuration:\n' +
        '  - DATABASE_URL: required when APP_ENV=production\n',
    );
  });
});
