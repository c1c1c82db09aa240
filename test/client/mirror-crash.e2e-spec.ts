import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { PosReadClient } from '../../packages/client/src/index';
import { loadSqliteDriver } from '../../packages/client/src/mirror/sqlite-driver';
import { seedBusinessData } from '../../tools/seed/business-data.writer';
import { describeEachDatabase } from '../support/describe-databases';
import { requires } from '../support/requirements';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { posRead } from './support/cli';
import { clientOn } from './support/client-app';
import {
  mount,
  spawnNpmPosRead,
  spawnPosRead,
  tmpfsMount,
  unmount,
} from './support/mirror-process';
import { apiLists, dayFromToday, settled } from './support/mirror-scenario';
import { MIRROR_TARGETS, mirrorTables, SQLITE_TARGET } from './support/mirror-targets';
import { Wire } from './support/wire';

jest.setTimeout(120_000);

describeEachDatabase(
  'Client: a mirror killed or out of disk ends equal from its last transaction (issue 25)',
  (ctx) => {
    let app: TestApp;
    let client: PosReadClient;
    let wire: Wire;
    let shops: string[];
    let env: Record<string, string>;
    let dir: string;

    beforeAll(async () => {
      const seeded = await seedBusinessData(ctx.db.db, {
        seed: 2525,
        shops: 2,
        days: 5,
        salesPerDay: 20,
        startDate: dayFromToday(-5),
      });
      shops = seeded.shopCodes;
      const user = await createUser(ctx.db.db, { shops });
      env = { POS_READ_USERNAME: user.username, POS_READ_PASSWORD: user.password };
      app = await startTestApp(ctx.db);
      wire = new Wire(app.baseUrl);
      client = clientOn(wire, user);
      dir = mkdtempSync(path.join(tmpdir(), 'mirror-crash-'));
    });
    afterAll(async () => {
      await app?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    // The SQLite file on both services; PostgreSQL and MariaDB once (the service's database
    // does not change what the mirror's database does).
    const targets = ctx.kind === 'sqlite' ? MIRROR_TARGETS : [SQLITE_TARGET];
    for (const target of targets) {
      requires(...target.requires).it(
        `should end equal, no row doubled, when killed with SIGKILL mid-run and started again [into ${target.kind}]`,
        async () => {
          const place = await target.create(dir, 'killed');
          try {
            await killAndResume(place.into);
          } finally {
            await place.drop();
          }
        },
      );
    }

    if (ctx.kind === 'sqlite') {
      it('should end mirror --follow on Ctrl-C with 130, directly and through npm run pos-read (issue 43)', async () => {
        const argv = (into: string) => [
          'mirror',
          '--into',
          into,
          '--follow',
          '--progress',
          '--base-url',
          app.baseUrl,
        ];
        const direct = spawnPosRead(argv(path.join(dir, 'direct.sqlite')), env);
        const npm = spawnNpmPosRead(argv(path.join(dir, 'npm.sqlite')), env);
        const following = /mirror: caught up, following/;
        const deadline = Date.now() + 60_000;
        while (!(following.test(direct.stderr()) && following.test(npm.stderr()))) {
          if (Date.now() > deadline) throw new Error(`not following: ${npm.stderr()}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await settled(path.join(dir, 'npm.sqlite'), client, shops);
        direct.child.kill('SIGINT');
        npm.ctrlC();
        expect(await direct.exited).toBe(130);
        expect(await npm.exited).toBe(130);
        for (const run of [direct, npm]) {
          expect(run.stderr()).toMatch(
            /pos-read: stopped by Ctrl-C \(SIGINT\): every page written is committed/,
          );
        }
      });
    }

    async function killAndResume(into: string) {
      const argv = [
        'mirror',
        '--into',
        into,
        '--limit',
        '3',
        '--progress',
        '--base-url',
        app.baseUrl,
      ];
      const run = spawnPosRead(argv, env);
      const deadline = Date.now() + 60_000;
      while (!/mirror: (\d{2,}) pages/.test(run.stderr()) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      run.child.kill('SIGKILL');
      expect(await run.exited).toBeNull();
      const partial = await mirrorTables(into);
      const total = await apiLists(client, shops);
      expect(partial.sales.length).toBeGreaterThan(0);
      expect(partial.sales.length + partial.payments.length).toBeLessThan(
        total.sales.length + total.payments.length,
      );

      const again = spawnPosRead(argv, env);
      expect(await again.exited).toBe(0);
      expect(again.stderr()).toMatch(/, 0 days repaired/);
      expect(await mirrorTables(into)).toEqual(total);
    }

    requires(tmpfsMount).describe('on a disk that fills up', () => {
      const disk = () => path.join(dir, 'disk');
      beforeAll(() => {
        mkdirSync(disk());
        mount(disk(), '96k');
      });
      afterAll(() => unmount(disk()));

      it('should stop with a clear error, keep a consistent file, and go on once there is room', async () => {
        const into = path.join(disk(), 'full.sqlite');
        const full = await posRead(wire, ['mirror', '--into', into, '--limit', '10'], { env });
        expect(full.code).toBe(9);
        expect(full.stderr).toMatch(
          /cannot write .*full\.sqlite: .*\(disk full\?\)\. Stopped; the file holds every transaction committed before/,
        );
        const Driver = await loadSqliteDriver();
        const db = new Driver(into, { fileMustExist: true });
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        db.close();

        mount(disk(), '20m', true);
        const resumed = await posRead(wire, ['mirror', '--into', into], { env });
        expect(resumed.code).toBe(0);
        expect(await mirrorTables(into)).toEqual(await apiLists(client, shops));
      });
    });
  },
);
