import type { HttpAdapterHost } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { TOKEN_ROUTE, TokenBodyRefusals } from './token-body-refusals';
import { TokenOutcomes } from './token-outcomes';

/** A Fastify app whose token route answers the status its body asks for, counted by the hook. */
async function app() {
  const fastify = new FastifyAdapter().getInstance();
  const outcomes = new TokenOutcomes();
  const host = { httpAdapter: { getInstance: () => fastify } } as unknown as HttpAdapterHost;
  new TokenBodyRefusals(host, outcomes).onModuleInit();
  const answer = (status: number) => ({ status });
  fastify.post(TOKEN_ROUTE, (request, reply) => {
    const { status } = request.body as { status: number };
    void reply.code(status).send(answer(status));
  });
  fastify.post('/api/v1.0/other', (_request, reply) => void reply.code(400).send(answer(400)));
  await fastify.ready();
  const post = (url: string, payload: string, type = 'application/json') =>
    fastify.inject({ method: 'POST', url, payload, headers: { 'content-type': type } });
  return { fastify, outcomes, post };
}

describe(TokenBodyRefusals.name, () => {
  it('should count the bodies refused before the route runs as invalid_request', async () => {
    const { fastify, outcomes, post } = await app();
    expect((await post(TOKEN_ROUTE, '{not json')).statusCode).toBe(400);
    expect((await post(TOKEN_ROUTE, 'username=a', 'text/csv')).statusCode).toBe(415);
    expect((await post(TOKEN_ROUTE, '{"status":400}')).statusCode).toBe(400);
    expect(outcomes.counts().refused).toEqual(new Map([['invalid_request', 3]]));
    await fastify.close();
  });

  it("should leave the route's own answers and other routes to those who decide them", async () => {
    const { fastify, outcomes, post } = await app();
    for (const status of [200, 401, 403, 429, 503]) {
      expect((await post(TOKEN_ROUTE, JSON.stringify({ status }))).statusCode).toBe(status);
    }
    expect((await post('/api/v1.0/other', '{}')).statusCode).toBe(400);
    expect(outcomes.counts()).toEqual({ issued: 0, refused: new Map(), lockouts: 0 });
    await fastify.close();
  });
});
