import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken } from '../support/http';
import { outputLine, ServiceProcess, spawnService, stopService } from '../support/service-process';

jest.setTimeout(60_000);

const { version } = JSON.parse(
  readFileSync(path.join(__dirname, '../../package.json'), 'utf8'),
) as { version: string };
const REVISION = 'c0ffee1234abcdef';

/**
 * Issue 22, item 9: a version everywhere an operator looks (the start-up line, /health, the
 * metrics), and no response that names the server or its framework.
 */
describeEachDatabase(
  'The running build says what it is, and no response names its server',
  (ctx) => {
    let service: ServiceProcess | undefined;
    const running = (): ServiceProcess => {
      if (!service) throw new Error('service not started');
      return service;
    };

    beforeAll(async () => {
      service = await spawnService(
        {
          DATA_DIR: ctx.db.dataDir,
          LOG_FORMAT: 'json',
          BUILD_REVISION: REVISION,
          ...(ctx.db.appDatabaseUrl ? { DATABASE_URL: ctx.db.appDatabaseUrl } : {}),
        },
        { built: true },
      );
    });
    afterAll(() => stopService(service));

    it('should name the version, the revision and Node in its start-up line', async () => {
      const line = await outputLine(running(), /listening on /);
      const { msg } = JSON.parse(line) as { msg: string };
      expect(msg).toMatch(
        new RegExp(
          `^POS read API ${version.replace(/\./g, '\\.')} listening on \\S+ ` +
            `\\(APP_ENV=development, revision ${REVISION}, Node ${process.version}\\)$`,
        ),
      );
    });

    it('should answer /health/live and /health/ready with the version and the revision', async () => {
      for (const probe of ['/health/live', '/health/ready']) {
        const body = (await (await fetch(`${running().managementUrl}${probe}`)).json()) as object;
        expect({ probe, ...body }).toMatchObject({
          probe,
          status: 'ok',
          version,
          revision: REVISION,
        });
      }
    });

    it('should expose pos_api_build_info{version,revision,node} 1', async () => {
      const scrape = await (await fetch(`${running().managementUrl}/metrics`)).text();
      expect(scrape).toContain('# TYPE pos_api_build_info gauge');
      expect(scrape).toContain(
        `pos_api_build_info{version="${version}",revision="${REVISION}",node="${process.version}"} 1`,
      );
    });

    it('should send no Server or X-Powered-By header and name no framework, on any kind of answer', async () => {
      const shop = await createShop(ctx.db.db);
      const user = await createUser(ctx.db.db, { shops: [shop] });
      const token = await getToken(running().baseUrl, user.username, user.password);
      const { baseUrl, managementUrl } = running();
      const answers: Array<[string, RequestInit?]> = [
        [`${baseUrl}/api/v1.0/sales?ShopCode=${shop}`, { headers: bearer(token) }],
        [`${baseUrl}/api/v1.0/sales?Bogus=1`, { headers: bearer(token) }],
        [`${baseUrl}/api/v1.0/shops`],
        [
          `${baseUrl}/api/v1.0/Token`,
          { method: 'POST', body: '{', headers: { 'Content-Type': 'application/json' } },
        ],
        [`${baseUrl}/no/such/route`],
        [`${baseUrl}/docs`],
        [`${baseUrl}/docs/openapi.json`],
        [`${managementUrl}/health/live`],
        [`${managementUrl}/metrics`],
        [`${managementUrl}/nothing`],
      ];
      for (const [url, init] of answers) {
        const response = await fetch(url, init);
        const text = await response.text();
        expect({ url, server: response.headers.get('server') }).toEqual({ url, server: null });
        expect({ url, poweredBy: response.headers.get('x-powered-by') }).toEqual({
          url,
          poweredBy: null,
        });
        if (!url.endsWith('/metrics') && !url.includes('/docs')) {
          expect({ url, framework: /fastify|nestjs|express/i.test(text) }).toEqual({
            url,
            framework: false,
          });
        }
      }
    });
  },
);
