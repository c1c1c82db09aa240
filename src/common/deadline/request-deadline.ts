import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { onApiRoute } from '../http/api-route';
import { Deadline, runWithDeadline } from './deadline';

const DEADLINE = Symbol('deadline');
type WithDeadline = { [DEADLINE]?: Deadline };

/**
 * True when the request was answered 503 by its deadline (counted at the edge, RequestTracker):
 * whatever its abandoned handler answers afterwards (a late result, the error its refused query
 * raises) is dropped, never sent twice.
 */
export function shedByDeadline(request: object): boolean {
  return (request as WithDeadline)[DEADLINE]?.expired === true;
}

/** Writes the 503 of a request whose deadline ran out (the problem filter's mapping). */
export type ShedAnswer = (error: unknown, request: FastifyRequest, reply: FastifyReply) => void;

/**
 * REQUEST_DEADLINE_MS on every API route, matched by its pattern (onApiRoute; decision 27.3), as two Fastify hooks rather than a Nest
 * interceptor: an interceptor puts Nest's rxjs pipeline on every route (decision 29.9).
 *
 * - `preHandler`, after the body is parsed and before Nest's guards and handler: the clock,
 *   counted from the request's arrival (`elapsedTime`), and its async context entered for the rest
 *   of the request (`done` runs inside `runWithDeadline`, so Nest's guards, handler and everything
 *   they start see `currentDeadline()`, which the database's pool wait and queries obey; the
 *   spec checks it for a request with a body too). A preHandler rather than an onRequest hook:
 *   what Fastify refuses while reading the request (413, 415, a bad body, the drain's 503) is
 *   answered by Fastify and never races the timer's 503; the clock still counts from arrival.
 * - `onSend`, registered before every other onSend hook: the answer is on its way, the deadline
 *   ends; for the report the answer is its first chunk, so a long stream is never cut.
 *
 * When the clock runs out before anything was sent, the timer answers 503 at once (`answer`) and
 * the handler's work is abandoned: its wait for a connection fails, its running query is
 * cancelled, no further query starts (database/deadline/); what it answers later is dropped
 * (`shedByDeadline`, checked by the problem filter and the adapter's reply).
 */
export function enforceRequestDeadlines(
  fastify: FastifyInstance,
  budgetMs: number,
  pathPrefix: string,
  answer: ShedAnswer,
): void {
  fastify.addHook('preHandler', (request: FastifyRequest & WithDeadline, reply, done) => {
    if (!onApiRoute(request, pathPrefix)) return done();
    const deadline = new Deadline(budgetMs, budgetMs - reply.elapsedTime);
    request[DEADLINE] = deadline;
    const shed = (): void => {
      if (!reply.sent && !reply.raw.headersSent) answer(deadline.signal.reason, request, reply);
    };
    // Already past it on arrival at the handler (a slow upload): answered here, handler never run.
    if (deadline.expired) return shed();
    deadline.onExpiry(shed);
    runWithDeadline(deadline, done);
  });
  fastify.addHook('onSend', (request: FastifyRequest & WithDeadline, _reply, payload, done) => {
    request[DEADLINE]?.finish();
    done(null, payload);
  });
}
