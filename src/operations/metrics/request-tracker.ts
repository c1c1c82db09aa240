import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { shedByDeadline } from '../../common/deadline/request-deadline';
import { nameRequestSpan } from '../../common/tracing/spans';
import { apiPath } from '../../config/api-prefix';
import { MetricsService } from './metrics.service';

const COUNTED = Symbol('counted');
type Tracked = FastifyRequest & { [COUNTED]?: boolean };

const REPORT_ROUTE = apiPath('TransactionDetailReport');

/** Route label of requests that matched no route (404s), so scanners cannot explode the labels. */
const UNMATCHED_ROUTE = '(unmatched)';

/**
 * Fastify hooks on the API server: request count and duration by route template and status,
 * requests in flight (graceful shutdown waits for them), report throttles and requests shed by
 * their deadline, all read at the edge from the route, the status and the request's deadline.
 * Token outcomes are counted by auth (SignInMetrics).
 */
@Injectable()
export class RequestTracker implements OnModuleInit {
  private active = 0;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: MetricsService,
  ) {}

  /** Requests received and not yet answered. */
  get inFlight(): number {
    return this.active;
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', (request: Tracked, _reply, done) => {
      request[COUNTED] = true;
      // The trace's name is the route template, never the URL with its query.
      nameRequestSpan(request.method, request.routeOptions.url);
      this.active++;
      this.metrics.requestStarted();
      done();
    });
    fastify.addHook('onResponse', (request: Tracked, reply: FastifyReply, done) => {
      if (this.leave(request)) this.record(request, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
    fastify.addHook('onRequestAbort', (request: Tracked, done) => {
      if (this.leave(request)) this.metrics.requestAborted();
      done();
    });
  }

  private leave(request: Tracked): boolean {
    if (!request[COUNTED]) return false;
    request[COUNTED] = false;
    this.active--;
    return true;
  }

  private record(request: FastifyRequest, status: number, seconds: number): void {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    this.metrics.requestFinished(request.method, route, status, seconds);
    if (route === REPORT_ROUTE && status === 429) this.metrics.reportThrottled();
    if (status === 503 && shedByDeadline(request)) this.metrics.requestShed('deadline');
  }
}
