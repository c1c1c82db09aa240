import { AppConfig } from './app-config';
import { ConfigError, loadConfig } from './load-config';

const problemsOf = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected the configuration to be refused');
};

describe(AppConfig.name, () => {
  it('should start with safe development defaults and the embedded database', () => {
    const config = loadConfig({ APP_ENV: 'development' });
    expect(config).toMatchObject({
      PORT: 3000,
      APP_ENV: 'development',
      JWT_ALGORITHM: 'ES256',
      LOGIN_MAX_FAILURES: 5,
      LOGIN_LOCKOUT_MINUTES: 15,
      TOKEN_RATE_LIMIT_PER_MINUTE: 30,
      TRUST_PROXY: false,
    });
    expect(config.usesEmbeddedDatabase).toBe(true);
  });

  it('should listen for management on loopback by default; the image opens it to the pod (issue 44)', () => {
    expect(loadConfig({ APP_ENV: 'development' }).MANAGEMENT_HOST).toBe('127.0.0.1');
  });

  it('should read numbers and booleans from their text', () => {
    const config = loadConfig({
      APP_ENV: 'development',
      PORT: '8080',
      TRUST_PROXY: 'true',
      LOGIN_MAX_FAILURES: '3',
    });
    expect(config).toMatchObject({ PORT: 8080, TRUST_PROXY: true, LOGIN_MAX_FAILURES: 3 });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ APP_ENV: 'staging' }, 'APP_ENV'],
    [{ DATABASE_URL: 'postgres://x' }, 'DATABASE_URL'],
    [{ JWT_ALGORITHM: 'RS256' }, 'JWT_ALGORITHM'],
    [{ LOGIN_MAX_FAILURES: '0' }, 'LOGIN_MAX_FAILURES'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/40' }, 'TRUST_PROXY'],
    [{ CURSOR_SECRET: 'short' }, 'CURSOR_SECRET'],
    [{ JWT_PREVIOUS_PUBLIC_KEYS: '[1,2]' }, 'JWT_PREVIOUS_PUBLIC_KEYS'],
    [{ JWT_PRIVATE_KEY: 'a', JWT_PRIVATE_KEY_FILE: '/b' }, 'set one, not both'],
  ])('should refuse %p with a message naming it', (env, name) => {
    expect(problemsOf(env)).toContain(name);
  });

  it.each(['PORT', 'MANAGEMENT_PORT', 'DATABASE_POOL_SIZE'])(
    'should refuse a blank %s rather than read it as 0 (a random port, for the ports)',
    (name) => {
      for (const blank of ['', '  ']) {
        expect(problemsOf({ APP_ENV: 'development', [name]: blank })).toContain(
          `${name}: ${name} must be an integer number`,
        );
      }
    },
  );

  it('should still read 0 where 0 is allowed (PORT=0 asks for any free port)', () => {
    expect(loadConfig({ APP_ENV: 'development', PORT: '0', MANAGEMENT_PORT: ' 0 ' })).toMatchObject(
      { PORT: 0, MANAGEMENT_PORT: 0 },
    );
  });

  it('should treat an unset APP_ENV as production, saying it is unset', () => {
    const message = problemsOf({});
    expect(message).toContain('DATABASE_URL: required when APP_ENV=production (APP_ENV is unset)');
    expect(message).toContain('JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE: required');
    const config = loadConfig({ DATABASE_URL: 'mysql://u:p@db:3306/bo', JWT_PRIVATE_KEY: 'k' });
    expect(config.isProduction).toBe(true);
  });

  it('should refuse TRUST_PROXY=true in production, and accept a hop count or addresses there', () => {
    const production = { APP_ENV: 'production', DATABASE_URL: 'mysql://u:p@db:3306/bo' };
    expect(problemsOf({ ...production, TRUST_PROXY: 'true' })).toMatch(
      /TRUST_PROXY: true .* refused when APP_ENV=production/,
    );
    const databaseOnly = { signsTokens: false };
    expect(loadConfig({ ...production, TRUST_PROXY: '1' }, databaseOnly).TRUST_PROXY).toBe(1);
    expect(
      loadConfig({ ...production, TRUST_PROXY: '10.0.0.0/8' }, databaseOnly).TRUST_PROXY,
    ).toEqual(['10.0.0.0/8']);
  });

  it('should refuse to start in production without DATABASE_URL and without a key', () => {
    const message = problemsOf({ APP_ENV: 'production' });
    expect(message).toContain('DATABASE_URL: required when APP_ENV=production');
    expect(message).toContain(
      'JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE: required when APP_ENV=production',
    );
  });

  it('should not require a signing key in production for commands that sign no token, but still DATABASE_URL', () => {
    const databaseOnly = { signsTokens: false };
    const config = loadConfig(
      { APP_ENV: 'production', DATABASE_URL: 'mysql://u:p@db:3306/bo' },
      databaseOnly,
    );
    expect(config.JWT_PRIVATE_KEY).toBeUndefined();
    let message = '';
    try {
      loadConfig({ APP_ENV: 'production' }, databaseOnly);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('DATABASE_URL: required when APP_ENV=production');
    expect(message).not.toContain('JWT_PRIVATE_KEY');
  });

  it('should bound slow clients by default: request 30 s, headers 10 s, idle 60 s', () => {
    expect(loadConfig({ APP_ENV: 'development' })).toMatchObject({
      REQUEST_TIMEOUT_MS: 30_000,
      HEADERS_TIMEOUT_MS: 10_000,
      IDLE_TIMEOUT_MS: 60_000,
    });
    expect(problemsOf({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toContain(
      'HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS',
    );
  });

  it('should give every request a deadline of 15 s by default, and refuse one under 500 ms', () => {
    expect(loadConfig({ APP_ENV: 'development' }).REQUEST_DEADLINE_MS).toBe(15_000);
    expect(loadConfig({ APP_ENV: 'development', REQUEST_DEADLINE_MS: '1500' })).toMatchObject({
      REQUEST_DEADLINE_MS: 1_500,
    });
    expect(problemsOf({ REQUEST_DEADLINE_MS: '499' })).toMatch(/REQUEST_DEADLINE_MS/);
  });

  it('should refuse an idle timeout that a feed request held by Wait (20 s) could outlast', () => {
    expect(problemsOf({ IDLE_TIMEOUT_MS: '29999' })).toContain(
      'IDLE_TIMEOUT_MS: must be at least 30000 (the longest feed Wait, 20 s, plus 10 s)',
    );
    expect(loadConfig({ APP_ENV: 'development', IDLE_TIMEOUT_MS: '30000' }).IDLE_TIMEOUT_MS).toBe(
      30_000,
    );
  });

  it('should follow a binary log only of the database the digests read (issue 57)', () => {
    const url = 'mysql://u:secret@db:3306/backoffice';
    const binlog = 'mysql://pos_api_binlog:secret@db:3306/backoffice';
    expect(problemsOf({ BINLOG_DATABASE_URL: binlog })).toContain(
      'BINLOG_DATABASE_URL: needs DATABASE_URL (the embedded SQLite has no binary log)',
    );
    expect(problemsOf({ DATABASE_URL: url, BINLOG_DATABASE_URL: `${binlog}2` })).toContain(
      'BINLOG_DATABASE_URL: must name the database of DATABASE_URL (the log of what the digests read)',
    );
    expect(problemsOf({ DATABASE_URL: url, BINLOG_DATABASE_URL: 'mysql://x@db' })).toMatch(
      /BINLOG_DATABASE_URL must look like/,
    );
    expect(problemsOf({ DATABASE_URL: url, BINLOG_DATABASE_URL: binlog })).not.toContain('secret');
    const config = loadConfig({
      APP_ENV: 'development',
      DATABASE_URL: url,
      BINLOG_DATABASE_URL: binlog,
    });
    expect(config.BINLOG_DATABASE_URL).toBe(binlog);
    expect(config.BINLOG_WAIT_MS).toBe(1_000);
    expect(config.BINLOG_LEASE_MS).toBe(5_000);
    // A lease shorter than 2 s leaves a renewal (every third of it) no room for Redis's timeout.
    expect(problemsOf({ BINLOG_LEASE_MS: '1000' })).toMatch(/BINLOG_LEASE_MS/);
  });

  it('should list every problem at once', () => {
    const message = problemsOf({ PORT: 'x', APP_ENV: 'y' });
    expect(message).toContain('PORT');
    expect(message).toContain('APP_ENV');
  });
});
