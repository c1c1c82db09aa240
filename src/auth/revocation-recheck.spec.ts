import Fastify, { type FastifyInstance } from 'fastify';
import { serviceUnavailable } from '../common/errors/problem';
import type { CallerClaims } from './caller';
import { recheckRevocationsBeforeAnswers } from './revocation-recheck';
import type { TokenRevocations } from './token-revocations';

const CALLER: CallerClaims = {
  userId: '1',
  username: 'u',
  roles: ['ApiUser'],
  shopCodes: [],
  tokenId: 'j',
};

/** A Fastify app with the hook and one route answering records for `user` (undefined: public). */
async function appWith(
  revocations: Partial<TokenRevocations>,
  user?: CallerClaims,
): Promise<FastifyInstance> {
  const app = Fastify();
  // As the service's problem filter does: a string body, which no preSerialization hook sees again.
  app.setErrorHandler((error: Error & { getStatus?: () => number }, _request, reply) => {
    void reply
      .status(error.getStatus?.() ?? 500)
      .type('application/json')
      .send(JSON.stringify({ detail: error.message }));
  });
  recheckRevocationsBeforeAnswers(app, revocations as TokenRevocations);
  app.get('/records', (request) => {
    (request as { user?: CallerClaims }).user = user;
    return { data: [{ id: '1' }] };
  });
  await app.ready();
  return app;
}

describe(recheckRevocationsBeforeAnswers.name, () => {
  const current = { assertCurrent: () => undefined };

  it('should let the records of a caller still admitted leave', async () => {
    const stillAdmits = jest.fn(() => true);
    const app = await appWith({ ...current, stillAdmits }, CALLER);
    const res = await app.inject('/records');
    expect([res.statusCode, res.json()]).toEqual([200, { data: [{ id: '1' }] }]);
    expect(stillAdmits).toHaveBeenCalledWith(CALLER);
  });

  it('should answer 401 invalid_token instead of the records when the token was revoked meanwhile', async () => {
    const app = await appWith({ ...current, stillAdmits: () => false }, CALLER);
    const res = await app.inject('/records');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      detail: 'The token is invalid: it was revoked; sign in again for a new one.',
    });
    expect(res.body).not.toMatch(/data/);
  });

  it('should answer 503 when the list is no longer current', async () => {
    const app = await appWith(
      {
        assertCurrent: () => {
          throw serviceUnavailable('stale', 1);
        },
        stillAdmits: () => true,
      },
      CALLER,
    );
    expect((await app.inject('/records')).statusCode).toBe(503);
  });

  it('should leave an answer without a caller (a public route) alone', async () => {
    const assertCurrent = jest.fn();
    const app = await appWith({ assertCurrent, stillAdmits: () => false });
    expect((await app.inject('/records')).statusCode).toBe(200);
    expect(assertCurrent).not.toHaveBeenCalled();
  });
});
