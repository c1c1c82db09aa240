import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { forgeToken } from '../support/tokens';
import { appForBlock } from '../support/test-app';

// Sign-ins (argon2) and several requests each: slow on a loaded machine.
jest.setTimeout(60_000);

const DATA_ROUTES = [
  'shops',
  'sales',
  'payments',
  'cash-movements',
  'sales/feed',
  'payments/feed',
  'cash-movements/feed',
  'sales/digest',
  'payments/digest',
  'cash-movements/digest',
];

/** Business data must not sit in a shared cache between the integrator and the service. */
describeEachDatabase('Cache-Control: no-store on every data answer', (ctx) => {
  const app = appForBlock(ctx);
  let token: string;

  beforeAll(async () => {
    token = forgeToken({ claims: { shop_code: [await createShop(ctx.db.db)] } });
  });

  it.each(DATA_ROUTES)('should send Cache-Control: no-store with GET /%s', async (route) => {
    const res = await http(app.current.baseUrl, `/api/v1.0/${route}`, { headers: bearer(token) });
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('should send it with a page of data, not only with refusals', async () => {
    const res = await http(app.current.baseUrl, '/api/v1.0/shops', { headers: bearer(token) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
