import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { apiPath } from '../config/api-prefix';
import { TokenOutcomes } from './token-outcomes';

/** The token route as Fastify knows it (its route template). */
export const TOKEN_ROUTE = apiPath('Token');

/** Statuses the token route's own code answers (TokenService, TokenIpThrottlerGuard). */
const ANSWERED_BY_THE_ROUTE = new Set([401, 403, 429]);

/**
 * Counts, as `invalid_request`, the token requests refused before the route's code runs: a body
 * Fastify cannot read (not JSON, too large, another content type) or one the validation pipe
 * refuses. These are the route's 4xx other than 401, 403 and 429, which are counted where they
 * are decided (TokenOutcomes).
 */
@Injectable()
export class TokenBodyRefusals implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly outcomes: TokenOutcomes,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onResponse', (request, reply, done) => {
      const status = reply.statusCode;
      if (
        request.method === 'POST' &&
        request.routeOptions.url === TOKEN_ROUTE &&
        status >= 400 &&
        status < 500 &&
        !ANSWERED_BY_THE_ROUTE.has(status)
      ) {
        this.outcomes.refused('invalid_request');
      }
      done();
    });
  }
}
