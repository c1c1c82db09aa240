import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describeEachDatabase } from '../support/describe-databases';
import { outputLine, spawnService, stopService } from '../support/service-process';

jest.setTimeout(60_000);

const PRELOAD = path.join(__dirname, '../support/fake-node-version.js');
const PACKAGE_JSON = path.join(__dirname, '../../package.json');
const WARNING = /is outside the releases this service supports/;

/**
 * Issue 56, item 6: the service started in production on a Node release outside package.json's
 * `engines` says so in one warning line at start. Production needs MySQL/MariaDB.
 */
describeEachDatabase(
  "A Node release outside package.json's engines is logged at start-up in production",
  (ctx) => {
    /** The JSON lines a production start on `nodeVersion` logged, up to its listening line. */
    const startLines = async (nodeVersion: string) => {
      const service = await spawnService(
        {
          APP_ENV: 'production',
          DATABASE_URL: ctx.db.appDatabaseUrl,
          LOG_FORMAT: 'json',
          NODE_OPTIONS: `--require ${PRELOAD}`,
          FAKE_NODE_VERSION: nodeVersion,
        },
        { built: true },
      );
      try {
        await outputLine(service, /listening on http/);
        return service
          .output()
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      } finally {
        await stopService(service);
      }
    };

    it('should warn once on Node v21.7.3, naming the version and the supported range', async () => {
      const { engines } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as {
        engines: { node: string };
      };
      const warnings = (await startLines('v21.7.3')).filter((l) => WARNING.test(String(l.msg)));
      expect(warnings).toEqual([
        expect.objectContaining({
          level: 'warn',
          context: 'Bootstrap',
          msg: `Node v21.7.3 is outside the releases this service supports (package.json engines: ${engines.node}); run it on one of those.`,
        }),
      ]);
    });

    it('should not warn on a supported release', async () => {
      const lines = await startLines('v22.14.0');
      expect(lines.some((l) => /listening on http/.test(String(l.msg)))).toBe(true);
      expect(lines.filter((l) => WARNING.test(String(l.msg)))).toEqual([]);
    });
  },
  { only: ['mysql'] },
);
