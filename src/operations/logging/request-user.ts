import type { FastifyInstance } from 'fastify';
import type { CallerClaims } from '../../common/caller-claims';

/** Who made a request, as its log line names them: the token's `sub` and `unique_name`. */
export interface WithLoggedUser {
  loggedUser?: { id: string; name: string };
}

/**
 * Puts the verified caller of an authenticated request (the bearer guard's `request.user`) on the
 * raw request before its answer is sent, where the request log's line finds it (`user`). Never the
 * token: only its subject and name claims.
 */
export function recordCallersForLogs(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    const caller = (request as { user?: CallerClaims }).user;
    if (caller) {
      (request.raw as WithLoggedUser).loggedUser = { id: caller.userId, name: caller.username };
    }
    done(null, payload);
  });
}
