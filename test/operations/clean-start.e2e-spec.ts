import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describeEachDatabase } from '../support/describe-databases';
import { ServiceProcess, spawnService, stopService } from '../support/service-process';

jest.setTimeout(60_000);

const ROOT = path.join(__dirname, '../..');

/**
 * The SQL files the README's development steps feed to `mariadb` after the back-office schema
 * (which the test database already has): what a development database gets (issue 46, item 8).
 */
const README_SQL_FILES = [
  ...readFileSync(path.join(ROOT, 'README.md'), 'utf8').matchAll(/^mariadb -uroot \S+ < (\S+)/gm),
]
  .map((match) => match[1])
  .filter((file) => file !== 'src/database/schema/backoffice.mysql.sql');

/** The JSON log lines a process wrote (pino: `level` as a name, LOG_FORMAT=json). */
function logLines(output: string): Array<{ level: string; context?: string; msg: string }> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: string; context?: string; msg: string });
}

/**
 * Issue 22, item 5: anyone alerting on warnings must not be paged by a healthy start. Until now
 * every start logged two `LegacyRouteConverter` warnings (the logger middleware's `*` route).
 */
describeEachDatabase('A clean start of the built service logs no warning', (ctx) => {
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    // A MariaDB made by the README's steps has the indexes the feeds want (without them the
    // service rightly warns).
    if (ctx.kind === 'mysql') {
      expect(README_SQL_FILES).toEqual(['sql/recommended-indexes.sql']);
      for (const file of README_SQL_FILES) {
        const statements = readFileSync(path.join(ROOT, file), 'utf8')
          .replace(/^--.*$/gm, '')
          .split(';');
        for (const statement of statements.map((s) => s.trim()).filter(Boolean)) {
          await ctx.db.db.query(statement);
        }
      }
    }
    service = await spawnService(
      {
        DATA_DIR: ctx.db.dataDir,
        LOG_FORMAT: 'json',
        ...(ctx.db.appDatabaseUrl ? { DATABASE_URL: ctx.db.appDatabaseUrl } : {}),
      },
      { built: true },
    );
    // Start-up is over once the service is ready and has answered a request.
    expect((await fetch(`${service.managementUrl}/health/ready`)).status).toBe(200);
    expect((await fetch(`${service.baseUrl}/api/v1.0/shops`)).status).toBe(401);
  });
  afterAll(() => stopService(service));

  it('should log its start-up lines at info, and none at warn or above', () => {
    const lines = logLines(service?.output() ?? '');
    expect(lines.some((l) => /listening on/.test(l.msg))).toBe(true);
    expect(
      lines.filter((l) => !['trace', 'debug', 'info'].includes(l.level)).map((l) => l.msg),
    ).toEqual([]);
  });
});
