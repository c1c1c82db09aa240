import type { FastifyInstance } from 'fastify';
import { onApiRoute } from './api-route';

/**
 * `Cache-Control: no-store` on every answer of an API route, the pages of the lists and feeds and
 * /shops included, unless the route set its own: business data must not sit in a shared cache
 * between the integrator and the service. Decided on the matched route (onApiRoute). The portal (/docs) keeps its own caching.
 */
export function neverStoreApiAnswers(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (onApiRoute(request) && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'no-store');
    }
    done(null, payload);
  });
}
