import type { FastifyRequest } from 'fastify';
import type { TokenRefusal } from './metrics.service';

export const TOKEN_ROUTE = '/api/v1.0/Token';
export const REPORT_ROUTE = '/api/v1.0/TransactionDetailReport';

const REFUSAL = Symbol('tokenRefusal');

type Annotated = FastifyRequest & { [REFUSAL]?: TokenRefusal };

/** Remembers, on the request, a refusal reason the status code alone cannot tell. */
export function markTokenRefusal(request: FastifyRequest, reason: TokenRefusal): void {
  (request as Annotated)[REFUSAL] = reason;
}

/**
 * The outcome of a token request from its status: 200 issued, else the refusal reason.
 * A 429 is a locked username when the token service said so, else the per-address limit.
 */
export function tokenOutcome(request: FastifyRequest, status: number): TokenRefusal | 'issued' {
  if (status >= 200 && status < 300) return 'issued';
  const marked = (request as Annotated)[REFUSAL];
  if (marked) return marked;
  if (status === 401) return 'invalid_credentials';
  if (status === 403) return 'missing_role';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'unavailable';
  if (status >= 400 && status < 500) return 'invalid_request';
  return 'error';
}
