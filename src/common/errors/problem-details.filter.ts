import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { shedByDeadline } from '../deadline/request-deadline';
import { currentTraceId } from '../tracing/spans';
import { PROBLEM_CONTENT_TYPE } from './problem';
import { toProblem } from './to-problem';

/** Path of the request without its query string (a query may hold anything a client typed). */
function requestInstance(request: Pick<FastifyRequest, 'url'>): string {
  const url = request.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Writes a problem for `error` on a Fastify reply; shared by the Nest filter and Fastify's own error handler. */
function sendProblem(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  logger: Logger,
): void {
  const problem = toProblem(error, requestInstance(request));
  problem.body.requestId = String(request.id);
  const traceId = currentTraceId();
  if (traceId) problem.body.traceId = traceId;
  if (problem.unexpected) {
    logger.error(
      // requestId is bound to every line logged while serving a request (operations/logging).
      { method: request.method, path: problem.body.instance, err: error },
      `Request failed with ${problem.status}`,
    );
  }
  if (reply.sent) return;
  void reply
    .status(problem.status)
    .headers(problem.headers)
    .header('Content-Type', PROBLEM_CONTENT_TYPE)
    .header('Cache-Control', 'no-store')
    .send(JSON.stringify(problem.body));
}

const logger = new Logger('Errors');

/** The 503 problem of a request whose deadline ran out, written from the deadline's timer. */
export function answerShedRequest(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  sendProblem(error, request, reply, logger);
}

/** The one app-wide filter: every error leaves as application/problem+json. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    // Answered 503 by its deadline already: the abandoned handler's error is not a second answer.
    if (shedByDeadline(request)) return;
    sendProblem(error, request, http.getResponse<FastifyReply>(), logger);
  }
}
