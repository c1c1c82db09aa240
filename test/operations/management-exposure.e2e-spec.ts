import { describeEachDatabase } from '../support/describe-databases';
import { outputLine, spawnService, stopService } from '../support/service-process';

jest.setTimeout(60_000);

const WARNING =
  /The management port \d+ \(health, metrics, no authentication\) listens on every interface/;

/**
 * The management port listens on 0.0.0.0 by default (a container's probes need it); a
 * production instance says so at start-up, naming the remedy. Production needs MySQL/MariaDB.
 */
describeEachDatabase(
  'The management port on every interface is logged at start-up in production',
  (ctx) => {
    const production = (managementHost: string) =>
      spawnService(
        {
          APP_ENV: 'production',
          DATABASE_URL: ctx.db.appDatabaseUrl,
          MANAGEMENT_HOST: managementHost,
          LOG_FORMAT: 'json',
        },
        { built: true },
      );

    it('should warn with MANAGEMENT_HOST=0.0.0.0 (the image sets it), naming the NetworkPolicy or firewall remedy', async () => {
      const service = await production('0.0.0.0');
      try {
        const line = JSON.parse(await outputLine(service, WARNING)) as Record<string, unknown>;
        expect(line).toMatchObject({ level: 'warn', context: 'Bootstrap' });
        expect(line.msg).toMatch(/NetworkPolicy or firewall rule, or set MANAGEMENT_HOST/);
      } finally {
        await stopService(service);
      }
    });

    it('should not warn when MANAGEMENT_HOST is a private address', async () => {
      const service = await production('127.0.0.1');
      try {
        await outputLine(service, /listening on http/);
        expect(service.output()).not.toMatch(WARNING);
      } finally {
        await stopService(service);
      }
    });
  },
  { only: ['mysql'] },
);
