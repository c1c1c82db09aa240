import { SignInConnections } from '../../src/auth/sign-in-connections';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { OpsApp, startOpsApp } from '../operations/support/management';

jest.setTimeout(60_000);

const TOKEN = '/api/v1.0/Token';

/**
 * A burst of right sign-ins of one name at once, as at the start of a surge (issue 29 item 4):
 * each reservation's statements wait on the same two rows of api_login_failures. The failure
 * table may hold only its share of the pool (decision 29.11), so a data read arriving in that
 * instant still gets a connection. The rows are held by another session here, which makes the
 * instant last as long as the spec needs: without the share, the burst took every connection.
 */
describeEachDatabase(
  'A burst of sign-ins leaves the pool to reads',
  (ctx) => {
    let ops: OpsApp;
    let shop: string;
    let user: { username: string; password: string };

    beforeAll(async () => {
      ops = await startOpsApp(ctx.db, {
        TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
        LOGIN_MAX_FAILURES: '1000',
        LOGIN_MAX_FAILURES_PER_NAME: '1000',
        LOGIN_MIN_RESPONSE_MS: '0',
        DATABASE_POOL_SIZE: '10',
      });
      shop = await createShop(ctx.db.db);
      user = await createUser(ctx.db.db, { shops: [shop] });
    });
    afterAll(async () => {
      await ops?.close();
    });

    it('should answer a data read promptly while 16 sign-ins wait on the failure rows, and issue all 16 once the rows are free', async () => {
      const token = await getToken(ops.baseUrl, user.username, user.password);
      const connections = ops.app.get(SignInConnections);
      expect(connections.share).toBe(2);
      const holder = ctx.db.db.createQueryRunner();
      await holder.startTransaction();
      let burst: Array<Promise<{ status: number }>> = [];
      try {
        await holder.query('SELECT * FROM api_login_failures WHERE username_key = ? FOR UPDATE', [
          user.username,
        ]);
        burst = Array.from({ length: 16 }, () =>
          http(ops.baseUrl, TOKEN, {
            method: 'POST',
            json: { username: user.username, password: user.password },
          }),
        );
        for (let i = 0; i < 250 && connections.stats().waiting < 14; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(connections.stats()).toMatchObject({ held: 2, waiting: 14 });
        const started = performance.now();
        const read = await http(ops.baseUrl, `/api/v1.0/sales?ShopCode=${shop}`, {
          headers: bearer(token),
        });
        expect(read.status).toBe(200);
        // Without the share the read waited for the rows' holder (here: for ever).
        expect(performance.now() - started).toBeLessThan(3_000);
        expect(connections.stats()).toMatchObject({ held: 2, waiting: 14 });
      } finally {
        await holder.rollbackTransaction();
        await holder.release();
      }
      expect((await Promise.all(burst)).map((r) => r.status)).toEqual(Array(16).fill(200));
      expect(connections.stats()).toMatchObject({ held: 0, waiting: 0, peak: 2 });
    });
  },
  { only: ['mysql'] },
);
