import { createHash } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * The client_key of a sign-in attempt: the client address Fastify resolved (the socket's, or the
 * X-Forwarded-For entry TRUST_PROXY designates). An address is kept as written (lower case);
 * anything else a misconfigured proxy setting lets a client write (TRUST_PROXY=true takes the
 * client's own leftmost entry) becomes a fixed-width digest, so the ASCII column of 64 characters
 * always holds it.
 */
export function clientKey(address: string | undefined): string {
  const value = address ?? '';
  if (isIP(value) !== 0) return value.toLowerCase();
  return `#${createHash('sha256').update(value).digest('base64url')}`;
}
