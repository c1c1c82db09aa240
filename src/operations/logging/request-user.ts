import type { FastifyInstance } from 'fastify';
import type { CallerClaims } from '../../common/caller-claims';

/** Who made a request, as its log line names them: the token's `sub` and `unique_name`. */
export interface WithLoggedUser {
  loggedUser?: { id: string; name: string };
}

/**
 * The user a token answer (POST /Token, 200) was issued to, from the issued token's own `sub` and
 * `unique_name` claims, as an authenticated request's line reads them from its bearer token.
 * Only those two claims: never the token, never the password of the request body.
 */
export function issuedTokenUser(payload: unknown): { id: string; name: string } | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const { token } = JSON.parse(payload) as { token?: unknown };
    if (typeof token !== 'string') return undefined;
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      sub?: unknown;
      unique_name?: unknown;
    };
    if (typeof claims.sub !== 'string' || typeof claims.unique_name !== 'string') return undefined;
    return { id: claims.sub, name: claims.unique_name };
  } catch {
    return undefined;
  }
}

/**
 * Puts the verified caller of an authenticated request (the bearer guard's `request.user`) on the
 * raw request before its answer is sent, where the request log's line finds it (`user`); on a
 * successful sign-in, the user the token was issued to. Never the token: only its subject and
 * name claims.
 */
export function recordCallersForLogs(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const caller = (request as { user?: CallerClaims }).user;
    if (caller) {
      (request.raw as WithLoggedUser).loggedUser = { id: caller.userId, name: caller.username };
    } else if (
      request.method === 'POST' &&
      reply.statusCode === 200 &&
      request.routeOptions.url?.endsWith('/Token')
    ) {
      const issuedTo = issuedTokenUser(payload);
      if (issuedTo) (request.raw as WithLoggedUser).loggedUser = issuedTo;
    }
    done(null, payload);
  });
}
