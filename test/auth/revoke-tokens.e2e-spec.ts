import { runBackofficeAdmin } from '../../tools/backoffice-admin/backoffice-admin';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop, createUser, setEnabled } from '../support/factories';
import { bearer, getToken, http } from '../support/http';
import { spawnService, stopService, ServiceProcess } from '../support/service-process';
import { decodeSegment } from '../support/tokens';

jest.setTimeout(120_000);

/** The bound this spec runs with: a revocation reaches every instance within it. */
const REFRESH_MS = 1_000;
const SHOPS = '/api/v1.0/shops';

/**
 * `npm run backoffice -- revoke-tokens`: the emergency action for a leaked token. Two instances
 * (processes of their own, each with its own in-memory list) on one database: both refuse the
 * revoked tokens with 401 within TOKEN_REVOCATION_REFRESH_MS, with no database read per request.
 * Disable keeps issued tokens valid (contract rule 6).
 */
describeEachDatabase('revoke-tokens: a leaked token refused on every instance', (ctx) => {
  const instances: ServiceProcess[] = [];
  let shop: string;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    const env = {
      DATA_DIR: ctx.db.dataDir,
      DATABASE_URL: ctx.db.appDatabaseUrl,
      TOKEN_REVOCATION_REFRESH_MS: String(REFRESH_MS),
      LOGIN_MIN_RESPONSE_MS: '0',
    };
    instances.push(
      await spawnService(env, { built: true }),
      await spawnService(env, { built: true }),
    );
  });
  afterAll(async () => {
    for (const instance of instances) await stopService(instance);
  });

  const admin = (args: string[]) =>
    runBackofficeAdmin(
      args,
      { out: () => undefined, err: () => undefined, readStdin: async () => '' },
      {
        APP_ENV: 'development',
        DATA_DIR: ctx.db.dataDir,
        ...(ctx.db.databaseUrl ? { DATABASE_URL: ctx.db.databaseUrl } : {}),
      },
    );
  const status = async (instance: ServiceProcess, token: string) =>
    (await http(instance.baseUrl, SHOPS, { headers: bearer(token) })).status;

  /** Milliseconds until every instance answers 401 to `token` (fails past the bound). */
  async function untilRefusedEverywhere(token: string, since: number): Promise<number> {
    for (;;) {
      const statuses = await Promise.all(instances.map((i) => status(i, token)));
      if (statuses.every((s) => s === 401)) return Date.now() - since;
      if (Date.now() - since > REFRESH_MS + 2_000) throw new Error(`still ${statuses.join()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("should refuse every token of the user issued before, on both instances within the refresh interval, and keep other users' tokens and later ones", async () => {
    const user = await createUser(ctx.db.db, { shops: [shop] });
    const other = await createUser(ctx.db.db, { shops: [shop] });
    const leaked = await getToken(instances[0].baseUrl, user.username, user.password);
    const kept = await getToken(instances[1].baseUrl, other.username, other.password);
    expect(await status(instances[1], leaked)).toBe(200);
    const since = Date.now();
    expect(await admin(['revoke-tokens', '--user', user.username])).toBe(0);
    expect(await untilRefusedEverywhere(leaked, since)).toBeLessThanOrEqual(REFRESH_MS + 2_000);
    const refused = await http(instances[0].baseUrl, SHOPS, { headers: bearer(leaked) });
    expect(refused.body.detail).toBe(
      'The token is invalid: it was revoked; sign in again for a new one.',
    );
    for (const instance of instances) expect(await status(instance, kept)).toBe(200);
    // A second passes so the new token's iat is after the revocation's second.
    await new Promise((r) => setTimeout(r, 1_100));
    const fresh = await getToken(instances[1].baseUrl, user.username, user.password);
    for (const instance of instances) expect(await status(instance, fresh)).toBe(200);
  });

  it('should refuse one token by its jti, and no other token of the user', async () => {
    const user = await createUser(ctx.db.db, { shops: [shop] });
    const leaked = await getToken(instances[0].baseUrl, user.username, user.password);
    const sibling = await getToken(instances[1].baseUrl, user.username, user.password);
    const since = Date.now();
    expect(await admin(['revoke-tokens', '--jti', decodeSegment(leaked, 1).jti as string])).toBe(0);
    await untilRefusedEverywhere(leaked, since);
    for (const instance of instances) expect(await status(instance, sibling)).toBe(200);
  });

  it('should keep issued tokens valid when the user is disabled (rule 6): only revoke-tokens revokes', async () => {
    const user = await createUser(ctx.db.db, { shops: [shop] });
    const token = await getToken(instances[0].baseUrl, user.username, user.password);
    await setEnabled(ctx.db.db, user.id, false);
    await new Promise((r) => setTimeout(r, REFRESH_MS + 500));
    for (const instance of instances) expect(await status(instance, token)).toBe(200);
  });

  it('should refuse a revocation without --user or --jti, and an unknown user', async () => {
    expect(await admin(['revoke-tokens'])).not.toBe(0);
    expect(await admin(['revoke-tokens', '--user', 'nobody-at-all'])).not.toBe(0);
  });
});
