import { ConfigError, loadConfig as loadAnyConfig } from './load-config';

/** Development, so that no signing key is needed: these cases are about the replicas only. */
const loadConfig = (env: NodeJS.ProcessEnv) => loadAnyConfig({ APP_ENV: 'development', ...env });

const PRIMARY = 'mysql://pos_api:secret@db-primary:3306/backoffice';

describe('read replica configuration', () => {
  it('should have no replicas, a 30 s lag limit and a 5 s check by default', () => {
    const config = loadConfig({ DATABASE_URL: PRIMARY });
    expect(config.readReplicaUrls).toEqual([]);
    expect(config).toMatchObject({ MAX_REPLICA_LAG_SECONDS: 30, REPLICA_CHECK_INTERVAL_MS: 5000 });
  });

  it('should read DATABASE_READ_URLS as a comma-separated list', () => {
    const config = loadConfig({
      DATABASE_URL: PRIMARY,
      DATABASE_READ_URLS: ' mysql://r:s@db-r1:3306/backoffice, mariadb://r:s@db-r2/backoffice ,',
    });
    expect(config.readReplicaUrls).toEqual([
      'mysql://r:s@db-r1:3306/backoffice',
      'mariadb://r:s@db-r2/backoffice',
    ]);
  });

  it('should refuse replicas for the embedded SQLite database', () => {
    expect(() => loadConfig({ DATABASE_READ_URLS: 'mysql://r:s@db-r1:3306/backoffice' })).toThrow(
      /DATABASE_READ_URLS: needs DATABASE_URL/,
    );
  });

  it('should refuse an entry that is not a mysql:// URL without echoing it', () => {
    let message = '';
    try {
      loadConfig({
        DATABASE_URL: PRIMARY,
        DATABASE_READ_URLS: 'mysql://r:s@db-r1/backoffice,postgres://r:hunter2@db-r2/x',
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/DATABASE_READ_URLS: entry 2 must look like mysql:/);
    expect(message).not.toMatch(/hunter2/);
  });

  it.each([
    ['MAX_REPLICA_LAG_SECONDS', '0'],
    ['MAX_REPLICA_LAG_SECONDS', 'soon'],
    ['REPLICA_CHECK_INTERVAL_MS', '10'],
  ])('should refuse %s=%s', (name, value) => {
    expect(() => loadConfig({ DATABASE_URL: PRIMARY, [name]: value })).toThrow(name);
  });
});
