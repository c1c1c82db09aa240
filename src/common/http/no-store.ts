import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../config/api-prefix';

const API_PATH = `/${API_PREFIX}/`;

/**
 * `Cache-Control: no-store` on every answer of an API route, the pages of the lists and feeds and
 * /shops included, unless the route set its own: business data must not sit in a shared cache
 * between the integrator and the service. The portal (/docs) keeps its own caching.
 */
export function neverStoreApiAnswers(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith(API_PATH) && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'no-store');
    }
    done(null, payload);
  });
}
