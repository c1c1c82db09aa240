import { NetworkError, ServiceUnavailableError, Sleep } from '../../packages/client/src/index';
import { sleep as realSleep } from '../../packages/client/src/retry';
import { TcpProxy } from '../operations/support/tcp-proxy';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { insertSale } from '../support/business-factories';
import { freePort } from '../support/service-process';
import { startTestApp, TestApp } from '../support/test-app';
import { clientOn } from './support/client-app';
import { Wire } from './support/wire';

jest.setTimeout(60_000);

/** A sleep that records each wait and takes none (jitter fixed at its ceiling). */
function recordingSleep(waits: number[]): Sleep {
  return async (ms) => void waits.push(ms);
}

describeEachDatabase('Client: outages, retried with back-off for GETs only (issue 15)', (ctx) => {
  it('should retry a GET after network errors with exponential back-off, a bounded number of times, then throw NetworkError', async () => {
    const user = await createUser(ctx.db.db);
    const app = await startTestApp(ctx.db);
    try {
      const wire = new Wire(app.baseUrl);
      wire.dataTarget = `http://127.0.0.1:${await freePort()}`;
      const waits: number[] = [];
      const client = clientOn(wire, user, {
        retry: { maxRetries: 3, baseDelayMs: 100 },
        sleep: recordingSleep(waits),
        random: () => 1,
      });
      const error = await client.shops.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).toMatch(/4 attempts/);
      expect(waits).toEqual([100, 200, 400]);
      expect(wire.dataRequests().map((r) => r.status)).toEqual([0, 0, 0, 0]);
      expect(wire.tokenRequests).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('should not retry the token request (a POST) after a network error', async () => {
    const wire = new Wire(`http://127.0.0.1:${await freePort()}`);
    const waits: number[] = [];
    const client = clientOn(
      wire,
      { username: 'u', password: 'p' },
      { sleep: recordingSleep(waits) },
    );
    await expect(client.shops.list()).rejects.toBeInstanceOf(NetworkError);
    expect(wire.tokenRequests).toBe(1);
    expect(waits).toEqual([]);
  });

  if (ctx.kind !== 'mysql') return;

  describe('behind a TCP proxy that the test cuts and restores [mariadb]', () => {
    let proxy: TcpProxy;
    let app: TestApp;
    let user: { username: string; password: string };
    let shopCode: string;

    beforeAll(async () => {
      let viaProxy: string;
      ({ proxy, viaProxy } = await TcpProxy.inFrontOf(ctx.db.appDatabaseUrl as string));
      shopCode = await createShop(ctx.db.db);
      for (let id = 1; id <= 5; id++) {
        await insertSale(ctx.db.db, {
          id: BigInt(900_000 + id),
          shopCode,
          soldAt: `2026-03-0${id} 10:00:00.000`,
        });
      }
      user = await createUser(ctx.db.db, { shops: [shopCode] });
      app = await startTestApp(
        { ...ctx.db, appDatabaseUrl: viaProxy },
        { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_QUERY_TIMEOUT_MS: '1500' },
      );
    });
    afterAll(async () => {
      await app?.close();
      await proxy?.close();
    });

    it('should wait out 503s during a database cut with back-off, and read everything once the database is back', async () => {
      const wire = new Wire(app.baseUrl);
      const waits: number[] = [];
      const sleep: Sleep = async (ms, signal) => {
        waits.push(ms);
        if (waits.length === 2) await proxy.restore();
        await realSleep(Math.min(ms, 300), signal);
      };
      const client = clientOn(wire, user, { retry: { maxRetries: 30, maxDelayMs: 1000 }, sleep });
      await client.shops.list(); // the token, before the cut
      await proxy.cut();
      const sales = await client.sales.list({ shopCode, limit: 2 }).toArray();
      expect(sales.map((s) => s.id)).toEqual(['900001', '900002', '900003', '900004', '900005']);
      const statuses = wire.dataRequests().map((r) => r.status);
      expect(statuses.slice(1, 3)).toEqual([503, 503]);
      expect(statuses.at(-1)).toBe(200);
      expect(waits.length).toBeGreaterThanOrEqual(2);
      expect(wire.tokenRequests).toBe(1);
    });

    it('should give up after maxRetries with ServiceUnavailableError and the Retry-After of the service', async () => {
      const wire = new Wire(app.baseUrl);
      const waits: number[] = [];
      const client = clientOn(wire, user, {
        retry: { maxRetries: 2 },
        sleep: recordingSleep(waits),
      });
      await client.shops.list();
      await proxy.cut();
      try {
        const error = await client.sales
          .list({ shopCode })
          .toArray()
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ServiceUnavailableError);
        expect((error as ServiceUnavailableError).retryAfterSeconds).toBeGreaterThan(0);
        expect(wire.dataRequests().map((r) => r.status)).toEqual([200, 503, 503, 503]);
        expect(waits).toHaveLength(2);
      } finally {
        await proxy.restore();
      }
    });

    it('should not retry the token request on a 503: it throws ServiceUnavailableError at once', async () => {
      const wire = new Wire(app.baseUrl);
      const waits: number[] = [];
      const client = clientOn(wire, user, { sleep: recordingSleep(waits) });
      await proxy.cut();
      try {
        await expect(client.shops.list()).rejects.toBeInstanceOf(ServiceUnavailableError);
        expect(wire.tokenRequests).toBe(1);
        expect(waits).toEqual([]);
      } finally {
        await proxy.restore();
      }
    });
  });
});
