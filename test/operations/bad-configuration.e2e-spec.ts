import { ServiceEnv, startServiceProcess } from '../support/service-process';

/** Starts the built service with `env`, expects exit 1, and returns what it wrote. */
async function refusalOf(env: ServiceEnv): Promise<string> {
  const service = startServiceProcess({ LOG_FORMAT: 'pretty', ...env }, { built: true });
  expect(await service.exited).toEqual({ code: 1, signal: null });
  return service.output();
}

const UNREACHABLE_DATABASE = 'mysql://pos_api:secret@127.0.0.1:1/backoffice';

/** In text (LOG_FORMAT=pretty); JSON lines: start-failure-logs.e2e-spec.ts. */
describe('A bad configuration value stops the built service (node dist/src/main.js)', () => {
  it.each([
    ['PORT', 'abc'],
    ['APP_ENV', 'staging'],
    ['TRUST_PROXY', 'everyone'],
    ['LOGIN_MAX_FAILURES', '0'],
  ])(
    'should exit 1 with a message naming %s (=%s) on every line and no stack trace',
    async (name, value) => {
      const service = startServiceProcess({ LOG_FORMAT: 'pretty', [name]: value }, { built: true });
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
    expect(await refusalOf({ APP_ENV: 'production' })).toBe(
      'The service could not start: Invalid configuration:\n' +
        '  - DATABASE_URL: required when APP_ENV=production\n',
    );
  });

  it('should treat an unset APP_ENV as production: exit 1 naming JWT_PRIVATE_KEY when there is no key', async () => {
    const output = await refusalOf({
      APP_ENV: undefined,
      JWT_PRIVATE_KEY: undefined,
      JWT_KEY_ID: undefined,
      DATABASE_URL: UNREACHABLE_DATABASE,
    });
    expect(output).toBe(
      'The service could not start: Invalid configuration:\n' +
        '  - JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE: required when APP_ENV=production (APP_ENV is unset)\n',
    );
  });

  it('should refuse TRUST_PROXY=true in production, asking for a hop count or addresses', async () => {
    const output = await refusalOf({
      APP_ENV: 'production',
      TRUST_PROXY: 'true',
      DATABASE_URL: UNREACHABLE_DATABASE,
    });
    expect(output).toMatch(
      /^ {2}- TRUST_PROXY: true .* refused when APP_ENV=production; set the number of proxy hops/m,
    );
  });
});
