import type { FastifyRequest } from 'fastify';
import { markTokenRefusal, tokenOutcome } from './token-outcome';

describe(tokenOutcome.name, () => {
  const request = () => ({}) as FastifyRequest;

  it.each([
    [200, 'issued'],
    [400, 'invalid_request'],
    [415, 'invalid_request'],
    [401, 'invalid_credentials'],
    [403, 'missing_role'],
    [429, 'rate_limited'],
    [503, 'unavailable'],
    [500, 'error'],
  ])('should classify status %i as %s', (status, outcome) => {
    expect(tokenOutcome(request(), status)).toBe(outcome);
  });

  it('should prefer the reason the token handler marked (a 429 of a locked username)', () => {
    const locked = request();
    markTokenRefusal(locked, 'locked');
    expect(tokenOutcome(locked, 429)).toBe('locked');
  });
});
