import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { PosReadClient } from '../../packages/client/src/index';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { insertSale } from '../support/business-factories';
import { describeEachDatabase } from '../support/describe-databases';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { clientOn } from './support/client-app';
import {
  dayFromToday,
  settled,
  whileUncommitted,
  writeEverything,
} from './support/mirror-scenario';
import { Wire } from './support/wire';

jest.setTimeout(120_000);

describeEachDatabase(
  'Client: pos-read mirror --follow stays equal while the back office writes (issue 25)',
  (ctx) => {
    let app: TestApp;
    let client: PosReadClient;
    let shops: string[];
    let env: Record<string, string>;
    let dir: string;

    beforeAll(async () => {
      const seeded = await seedBusinessData(ctx.db.db, {
        seed: 2526,
        shops: 2,
        days: 3,
        salesPerDay: 10,
        startDate: dayFromToday(-3),
      });
      shops = seeded.shopCodes;
      const user = await createUser(ctx.db.db, { shops });
      env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
      app = await startTestApp(ctx.db);
      client = clientOn(new Wire(app.baseUrl), user);
      dir = mkdtempSync(path.join(tmpdir(), 'mirror-follow-'));
    });
    afterAll(async () => {
      await app?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('should follow inserts, late uploads, voids, a changed line, a deleted movement and a rolled-back insert, renew its token, and stop with 0', async () => {
      const into = path.join(dir, 'live.sqlite');
      const wire = new Wire(app.baseUrl);
      let offset = 0;
      const controller = new AbortController();
      const following = posRead(
        wire,
        ['mirror', '--into', into, '--follow', '--reconcile-every', '1'],
        {
          env,
          signal: controller.signal,
          client: { now: () => Date.now() + offset },
        },
      );
      await settled(into, client, shops);
      // Held, not polled: an idle second sends no more than one call per feed.
      const idleFrom = wire.dataRequests().filter((r) => r.path.endsWith('/feed')).length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(
        wire.dataRequests().filter((r) => r.path.endsWith('/feed')).length - idleFrom,
      ).toBeLessThanOrEqual(3);

      const [{ max }] = await ctx.db.db.query<Array<{ max: string }>>(
        'SELECT MAX(id) AS max FROM pos_sales',
      );
      const next = BigInt(max) + 100n;
      await writeEverything(ctx.db.db, shops[1], next);
      await whileUncommitted(ctx.db.db, { id: next + 50n, shopCode: shops[0] }, async () => {
        // MariaDB: the follow runs on while the insert is uncommitted (SQLite: one writer).
        if (ctx.kind === 'mysql') await new Promise((resolve) => setTimeout(resolve, 1500));
      });
      await settled(into, client, shops);

      // Rule 9: the token is renewed 5 minutes before it expires, while the follow goes on.
      const tokens = wire.tokenRequests;
      const claims = wire.issued[0].split('.')[1];
      const { exp } = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
        exp: number;
      };
      const expiration = exp * 1000;
      offset = expiration - 5 * 60_000 + 1000 - Date.now();
      await insertSale(ctx.db.db, {
        id: next + 60n,
        shopCode: shops[0],
        soldAt: `${dayFromToday(0)} 10:00:00.000`,
      });
      await settled(into, client, shops);
      // The call after the renewal point (the next reconciliation's, a second later) renews.
      for (let i = 0; i < 40 && wire.tokenRequests === tokens; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(wire.tokenRequests).toBe(tokens + 1);
      expect(wire.sent.filter((r) => r.status === 401)).toEqual([]);

      controller.abort();
      const result = await following;
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/rows: sales \d+/);
      expect(await posRead(wire, ['verify', '--into', into], { env })).toMatchObject({ code: 0 });
    });
  },
);
