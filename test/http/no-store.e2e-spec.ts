import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { forgeToken } from '../support/tokens';
import { appForBlock } from '../support/test-app';
import { dataRoutes } from './support/data-routes';

// Sign-ins (argon2) and several requests each: slow on a loaded machine.
jest.setTimeout(60_000);

/**
 * Every data route with a query it answers 200, so the header is checked on the data itself: a
 * refusal (400, 401) is a problem, and problems carried no-store before issue 26 (a test on a
 * refusal could not fail without the fix). The shop is a placeholder, put in place per test.
 */
const SHOP = 'SHOP';
const DATA_ROUTES = dataRoutes(SHOP);

/** Business data must not sit in a shared cache between the integrator and the service. */
describeEachDatabase('Cache-Control: no-store on every data answer', (ctx) => {
  const app = appForBlock(ctx);
  let token: string;
  let shop: string;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    token = forgeToken({ claims: { shop_code: [shop] } });
  });

  it.each(DATA_ROUTES)(
    'should send Cache-Control: no-store with a 200 to GET /%s',
    async (route) => {
      const path = `/api/v1.0/${route.replace(`ShopCode=${SHOP}`, `ShopCode=${shop}`)}`;
      const res = await http(app.current.baseUrl, path, { headers: bearer(token) });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
    },
  );

  it('should send it with refusals too (a problem names the request in instance)', async () => {
    const res = await http(app.current.baseUrl, '/api/v1.0/sales?Limit=0', {
      headers: bearer(token),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
