import { DigestAdmission } from '../../src/sync/digest/digest-budget';
import { gateQueries } from '../operations/support/query-gate';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';

jest.setTimeout(60_000);

const PERIOD = 'From=2026-03-01&To=2026-06-01';
const PER_MINUTE = 4;

/**
 * Issue 44, 2: a digest is seconds of server work, so one user's digests have a budget:
 * DIGEST_MAX_IN_FLIGHT_PER_USER at once (2) and DIGEST_CALLS_PER_MINUTE (4 here), refused 429
 * with Retry-After and a problem that names the limit; other users keep theirs.
 */
describeEachDatabase('Digests: a budget per user', (ctx) => {
  let api: TestApp;
  let shop: string;
  let users = 0;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    api = await startTestApp(ctx.db, {
      DIGEST_CALLS_PER_MINUTE: String(PER_MINUTE),
      DIGEST_MAX_IN_FLIGHT: '3',
    });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await api?.close();
  });

  const newUser = () =>
    forgeToken({ claims: { sub: `digester${++users}`, jti: `d${users}`, shop_code: [shop] } });
  const digest = (token: string, resource = 'sales') =>
    http(api.baseUrl, `/api/v1.0/${resource}/digest?ShopCode=${shop}&${PERIOD}`, {
      headers: bearer(token),
    });

  it('should refuse a third digest of one user while two run, at once, with 429 naming the limit, and serve other users meanwhile', async () => {
    const token = newUser();
    // The sales digest's reads (a payment's reads name pos_sales too: its sale's business date).
    const gate = gateQueries(api.app, /\bFROM pos_sales x\b/);
    try {
      const running = [digest(token), digest(token)];
      // Both admitted (their reads held), before the third is sent.
      const admission = api.app.get(DigestAdmission);
      for (let waited = 0; admission.inFlight(`digester${users}`) < 2; waited += 20) {
        if (waited > 10_000) throw new Error('the two digests were never admitted');
        await new Promise((r) => setTimeout(r, 20));
      }
      const third = await digest(token, 'payments');
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(third.body.detail).toBe(
        'Digest limit exceeded: at most 2 digests in flight per user; retry when one has been answered.',
      );
      expect((await digest(newUser(), 'payments')).status).toBe(200);
      gate.open();
      expect((await Promise.all(running)).map((res) => res.status)).toEqual([200, 200]);
    } finally {
      gate.open();
      jest.restoreAllMocks();
    }
    // Answered, they free their places.
    expect((await digest(token, 'payments')).status).toBe(200);
  });

  it("should refuse any user's digest with 503 while the instance runs DIGEST_MAX_IN_FLIGHT (3 here), and take one again once one is answered", async () => {
    const [first, second, third] = [newUser(), newUser(), newUser()];
    // The sales digest's reads (a payment's reads name pos_sales too: its sale's business date).
    const gate = gateQueries(api.app, /\bFROM pos_sales x\b/);
    const admission = api.app.get(DigestAdmission);
    try {
      const running = [digest(first), digest(first), digest(second)];
      const admitted = () =>
        admission.inFlight(`digester${users - 2}`) + admission.inFlight(`digester${users - 1}`);
      for (let waited = 0; admitted() < 3; waited += 20) {
        if (waited > 10_000) throw new Error('the three digests were never admitted');
        await new Promise((r) => setTimeout(r, 20));
      }
      const busy = await digest(third, 'payments');
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(busy.body.detail).toBe(
        'This instance is running its 3 digests at once; retry shortly.',
      );
      gate.open();
      expect((await Promise.all(running)).map((res) => res.status)).toEqual([200, 200, 200]);
    } finally {
      gate.open();
      jest.restoreAllMocks();
    }
    expect((await digest(third, 'payments')).status).toBe(200);
  });

  it('should refuse a user past DIGEST_CALLS_PER_MINUTE with 429 and the wait, across resources, and not another user', async () => {
    const token = newUser();
    // Refused parameters (400) give their call back: they cost the service nothing.
    for (let i = 0; i < PER_MINUTE + 1; i++) {
      const bad = await http(api.baseUrl, `/api/v1.0/sales/digest?ShopCode=${shop}&From=x`, {
        headers: bearer(token),
      });
      expect(bad.status).toBe(400);
    }
    const statuses = [];
    for (const resource of ['sales', 'payments', 'cash-movements', 'sales']) {
      statuses.push((await digest(token, resource)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200]);
    const refused = await digest(token, 'payments');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(refused.body.detail).toBe(
      `Digest limit exceeded: at most ${PER_MINUTE} digests a minute per user.`,
    );
    expect((await digest(newUser())).status).toBe(200);
    // Lists are not digests: the same user still reads pages.
    const list = await http(api.baseUrl, `/api/v1.0/sales?ShopCode=${shop}`, {
      headers: bearer(token),
    });
    expect(list.status).toBe(200);
  });
});
