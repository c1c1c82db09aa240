import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ManagementServer } from '../../src/operations/management.server';
import { insertSale } from '../support/business-factories';
import { grantAppDatabaseAccount } from '../support/app-database-account';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { capturedLogLines } from '../support/log-capture';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Short, so that a revocation reaches the instance within the spec's waits. */
const REFRESH_MS = 200;

/**
 * Issue 44, 3: an instance that cannot read api_token_revocations (an upgrade from 0.1.0 without
 * re-running sql/least-privilege.sql) must not serve tokens it cannot check: 503 on authenticated
 * routes, readiness down naming `revocations`, a log line naming the missing grant. And a feed
 * held by Wait checks its token again before it answers with the records it woke for.
 */
describeEachDatabase('Token revocation fails closed', (ctx) => {
  describe('an instance that cannot read api_token_revocations', () => {
    let api: TestApp;
    let managementUrl: string;
    let restore: () => Promise<void> = async () => undefined;

    beforeAll(async () => {
      let appDatabaseUrl = ctx.db.appDatabaseUrl;
      if (ctx.kind === 'mysql') {
        // The runtime account of sql/least-privilege.sql, as 0.1.0 had it: no SELECT on the table.
        const server = new URL(ctx.db.databaseUrl as string);
        const database = server.pathname.slice(1);
        server.pathname = '/';
        const user = `norevoc_${randomBytes(4).toString('hex')}`;
        appDatabaseUrl = await grantAppDatabaseAccount(server, database, {
          user,
          password: randomBytes(12).toString('hex'),
        });
        await ctx.db.db.query(`REVOKE SELECT ON api_token_revocations FROM '${user}'@'%'`);
        restore = async () => {
          const admin = new DataSource({ type: 'mysql', url: server.toString() });
          await admin.initialize();
          await admin.query(`DROP USER IF EXISTS '${user}'@'%'`);
          await admin.destroy();
        };
      } else {
        // SQLite has no grants: a table the instance cannot read is a table it cannot find.
        await ctx.db.db.query('ALTER TABLE api_token_revocations RENAME TO api_revocations_away');
        restore = () =>
          ctx.db.db.query('ALTER TABLE api_revocations_away RENAME TO api_token_revocations');
      }
      api = await startTestApp(
        { dataDir: ctx.db.dataDir, appDatabaseUrl },
        { TOKEN_REVOCATION_REFRESH_MS: String(REFRESH_MS) },
      );
      const port = await api.app.get(ManagementServer).listen(0, '127.0.0.1');
      managementUrl = `http://127.0.0.1:${port}`;
    });
    afterAll(async () => {
      await api?.close();
      await restore();
    });

    it('should answer 503 with Retry-After on an authenticated route, for a token it cannot check', async () => {
      const shop = await createShop(ctx.db.db);
      const token = forgeToken({ claims: { shop_code: [shop] } });
      const res = await http(api.baseUrl, '/api/v1.0/shops', { headers: bearer(token) });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.body.detail).toMatch(/revocations/);
      expect(res.text).not.toMatch(/GRANT|denied|SELECT|api_token_revocations/);
    });

    it('should say not ready, naming the revocations', async () => {
      const res = await http(managementUrl, '/health/ready');
      expect(res.status).toBe(503);
      expect(res.body.error.revocations).toMatchObject({ status: 'down' });
      expect(res.body.error.revocations.message).toMatch(/never read/);
    });

    it('should log an error that names the missing grant and the script that grants it', () => {
      // Both variants run in this process: the grant's line is MariaDB's, the other SQLite's.
      const lines = capturedLogLines()
        .filter((line) => line.includes('Cannot read the token revocations'))
        .map((line) => JSON.parse(line) as { level: string; msg: string });
      const named =
        ctx.kind === 'mysql'
          ? lines.filter((line) => /lacks SELECT on api_token_revocations/.test(line.msg))
          : lines.filter((line) => /no such table/.test(line.msg));
      expect(named.length).toBeGreaterThan(0);
      expect(named[0].level).toBe('error');
      if (ctx.kind === 'mysql') expect(named[0].msg).toMatch(/run sql\/least-privilege\.sql/);
    });
  });

  describe('a feed held by Wait', () => {
    let api: TestApp;
    let nextId = 7_000;

    beforeAll(async () => {
      api = await startTestApp(ctx.db, { TOKEN_REVOCATION_REFRESH_MS: String(REFRESH_MS) });
    });
    afterAll(async () => {
      await api?.close();
    });

    const sale = (shop: string) =>
      insertSale(ctx.db.db, {
        id: BigInt(++nextId),
        shopCode: shop,
        soldAt: '2026-05-10 10:00:00.000',
      });

    it('should answer 401, not the records it woke for, when its token was revoked while it waited', async () => {
      const shop = await createShop(ctx.db.db);
      await sale(shop);
      const jti = `held-${randomBytes(4).toString('hex')}`;
      const token = forgeToken({ claims: { sub: `held${nextId}`, shop_code: [shop], jti } });
      const feed = (query: string) =>
        http(api.baseUrl, `/api/v1.0/sales/feed?${query}`, { headers: bearer(token) });
      const first = await feed(`ShopCode=${shop}`);
      expect(first.body).toMatchObject({ caughtUp: true, data: [expect.anything()] });
      const waiting = feed(`Cursor=${encodeURIComponent(first.body.nextCursor)}&Wait=15`);
      await sleep(500);
      await ctx.db.db.query(
        'INSERT INTO api_token_revocations (user_id, jti, issued_before_s, revoked_at_ms) VALUES (NULL, ?, NULL, ?)',
        [jti, Date.now()],
      );
      // The instance has read the revocation (a few refreshes) before the record arrives.
      await sleep(REFRESH_MS * 4);
      await sale(shop);
      const res = await waiting;
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/revoked/);
      expect(res.headers.get('www-authenticate')).toMatch(/invalid_token/);
      expect(res.text).not.toMatch(/"data"/);
    });
  });
});
