import { DigestAdmission } from '../../src/sync/digest/digest-budget';
import { gateQueries, holdQueries } from '../operations/support/query-gate';
import { describeEachDatabase } from '../support/describe-databases';
import { createShop } from '../support/factories';
import { bearer, http } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { forgeToken } from '../support/tokens';

jest.setTimeout(60_000);

const PERIOD = 'From=2026-03-01&To=2026-06-01';
const PER_MINUTE = 4;

/**
 * Issue 44, 2 and issue 54, 1: a digest is seconds of server work, so the expensive reads share
 * the instance fairly: DIGEST_MAX_IN_FLIGHT at once (3 here), DIGEST_MAX_IN_FLIGHT_PER_USER of a
 * user running (2) and DIGEST_QUEUE_PER_USER waiting (1 here), a freed place to the user running
 * fewest first, and DIGEST_CALLS_PER_MINUTE (4 here); past a limit, 429 with Retry-After and a
 * problem that names it; other users keep theirs.
 */
describeEachDatabase('Digests: a fair share per user', (ctx) => {
  let api: TestApp;
  let shop: string;
  let users = 0;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    api = await startTestApp(ctx.db, {
      DIGEST_CALLS_PER_MINUTE: String(PER_MINUTE),
      DIGEST_MAX_IN_FLIGHT: '3',
      DIGEST_MAX_IN_FLIGHT_PER_USER: '2',
      DIGEST_QUEUE_PER_USER: '1',
    });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await api?.close();
  });

  const newUser = () => {
    const sub = `digester${++users}`;
    return { sub, token: forgeToken({ claims: { sub, jti: `d${users}`, shop_code: [shop] } }) };
  };
  const digest = (token: string, resource = 'sales', period = PERIOD) =>
    http(api.baseUrl, `/api/v1.0/${resource}/digest?ShopCode=${shop}&${period}`, {
      headers: bearer(token),
    });
  const until = async (what: string, check: () => boolean) => {
    for (let waited = 0; !check(); waited += 20) {
      if (waited > 10_000) throw new Error(`never: ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('should make a third digest of one user wait while two run, refuse a fourth at once with 429 naming the limits, and serve other users meanwhile', async () => {
    const user = newUser();
    // The sales digest's reads (a payment's reads name pos_sales too: its sale's business date).
    const gate = gateQueries(api.app, /\bFROM pos_sales x\b/);
    const admission = api.app.get(DigestAdmission);
    try {
      const running = [digest(user.token), digest(user.token)];
      await until('two running', () => admission.inFlight(user.sub) === 2);
      running.push(digest(user.token, 'payments'));
      await until('one waiting', () => admission.waiting(user.sub) === 1);
      const fourth = await digest(user.token, 'payments');
      expect(fourth.status).toBe(429);
      expect(fourth.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(fourth.headers.get('retry-after')).toBe('1');
      expect(fourth.body.detail).toBe(
        'Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most 2 digests running and 1 waiting per user; retry when one has been answered.',
      );
      expect((await digest(newUser().token, 'payments')).status).toBe(200);
      gate.open();
      expect((await Promise.all(running)).map((res) => res.status)).toEqual([200, 200, 200]);
    } finally {
      gate.open();
      jest.restoreAllMocks();
    }
    // Answered, they free their places.
    expect((await digest(user.token, 'payments')).status).toBe(200);
  });

  it("should give a place freed by one user to another user's first digest before the first user's waiting one, and never answer 503 while the instance is full", async () => {
    const [first, second, third] = [newUser(), newUser(), newUser()];
    // One day: each sales digest is one held statement, released one at a time, oldest first.
    const held = holdQueries(api.app, /\bFROM pos_sales x\b/);
    const admission = api.app.get(DigestAdmission);
    const day = 'From=2026-03-01&To=2026-03-02';
    try {
      const answers = [digest(first.token, 'sales', day), digest(first.token, 'sales', day)];
      await until('two held', () => held.count() === 2);
      answers.push(digest(second.token, 'sales', day));
      await until('three held', () => held.count() === 3);
      // The instance is full: the first user's third and the third user's first wait, not 503.
      answers.push(digest(first.token, 'sales', day));
      await until('first waits', () => admission.waiting(first.sub) === 1);
      answers.push(digest(third.token, 'sales', day));
      await until('third waits', () => admission.waiting(third.sub) === 1);
      held.releaseOldest(); // one of the first user's digests
      await until('third runs', () => admission.inFlight(third.sub) === 1);
      expect([admission.inFlight(first.sub), admission.waiting(first.sub)]).toEqual([1, 1]);
      held.releaseAll();
      expect((await Promise.all(answers)).map((res) => res.status)).toEqual([
        200, 200, 200, 200, 200,
      ]);
    } finally {
      held.releaseAll();
      jest.restoreAllMocks();
    }
  });

  it('should refuse a user past DIGEST_CALLS_PER_MINUTE with 429 and the wait, across resources, and not another user', async () => {
    const { token } = newUser();
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
      `Digest limit exceeded (DIGEST_CALLS_PER_MINUTE): at most ${PER_MINUTE} digests a minute per user.`,
    );
    expect((await digest(newUser().token)).status).toBe(200);
    // Lists are not digests: the same user still reads pages.
    const list = await http(api.baseUrl, `/api/v1.0/sales?ShopCode=${shop}`, {
      headers: bearer(token),
    });
    expect(list.status).toBe(200);
  });
});

/**
 * Issue 54, 1: a call that waited for a turn as long as its request's deadline allows (half of
 * REQUEST_DEADLINE_MS, here 1 s of 2) is the user's 429 naming the limit, not the instance's 503;
 * the read holding the only place is answered as usual once it can run.
 */
describeEachDatabase('Digests: a turn waited for past half the deadline', (ctx) => {
  let api: TestApp;
  let shop: string;

  beforeAll(async () => {
    shop = await createShop(ctx.db.db);
    api = await startTestApp(ctx.db, {
      REQUEST_DEADLINE_MS: '2000',
      DIGEST_MAX_IN_FLIGHT: '1',
      DIGEST_MAX_IN_FLIGHT_PER_USER: '1',
    });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await api?.close();
  });

  const digest = (sub: string) =>
    http(api.baseUrl, `/api/v1.0/sales/digest?ShopCode=${shop}&${PERIOD}`, {
      headers: bearer(forgeToken({ claims: { sub, shop_code: [shop] } })),
    });

  it("should answer 429 naming the deadline to a call that waited half of it behind another user's read", async () => {
    const gate = gateQueries(api.app, /\bFROM pos_sales x\b/);
    try {
      const holder = digest('holder');
      await gate.entered;
      const started = Date.now();
      const waited = await digest('patient');
      expect(waited.status).toBe(429);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(waited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(Number(waited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(waited.body.detail).toMatch(
        /^Digest limit exceeded \(REQUEST_DEADLINE_MS\): waited \d+ ms for a turn/,
      );
      gate.open();
      expect([200, 503]).toContain((await holder).status);
    } finally {
      gate.open();
      jest.restoreAllMocks();
    }
    // The place is free again: the patient user is served.
    expect((await digest('patient')).status).toBe(200);
  });
});
