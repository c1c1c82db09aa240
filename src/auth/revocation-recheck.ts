import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../common/errors/problem';
import type { CallerClaims } from './caller';
import { REVOKED, TokenRevocations } from './token-revocations';

/**
 * Checks the caller's token against the revocations again just before an answer is serialised:
 * the guard checked it on arrival, but a feed held by Wait answers up to its wait later, and a
 * token revoked meanwhile must not carry the records it woke for (issue 44, 3). A Map and a Set
 * lookup per answer; a stream (the report) is not re-checked, its first byte leaves at once.
 */
export function recheckRevocationsBeforeAnswers(
  fastify: FastifyInstance,
  revocations: TokenRevocations,
): void {
  fastify.addHook('preSerialization', (request, _reply, payload, done) => {
    const caller = (request as { user?: CallerClaims }).user;
    if (caller === undefined) return done(null, payload);
    try {
      revocations.assertCurrent();
    } catch (error) {
      return done(error as Error);
    }
    if (!revocations.stillAdmits(caller)) {
      return done(unauthorized(`The token is invalid: ${REVOKED}.`, 'invalid_token'));
    }
    done(null, payload);
  });
}
