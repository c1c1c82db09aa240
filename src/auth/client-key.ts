import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';

/**
 * The key of one client, for every per-client bound and for the logs: the sign-in budgets of
 * api_login_failures, the token route's per-address limit and the `client` field of the request
 * log all use it, so they always count the same client.
 *
 * - IPv4: the address ("203.0.113.9"). An IPv4-mapped IPv6 address ("::ffff:203.0.113.9") is the
 *   IPv4 address it maps.
 * - IPv6: its network of `ipv6Prefix` bits (CLIENT_IPV6_PREFIX_LENGTH, 64 by default) ("2001:db8:0:1::/64"): one host owns a whole /64, so
 *   keying on the full address gave it 2^64 budgets.
 * - An address a proxy wrote with its port (`203.0.113.5:1001`, `[2001:db8::1]:443`) is the
 *   address: a client's ports are one client (issue 44).
 * - Anything else a misconfigured proxy setting lets a client write (TRUST_PROXY=true takes the
 *   client's own leftmost entry): a fixed-width digest, so the ASCII column of 64 characters
 *   always holds it.
 */
export function clientKey(address: string | undefined, ipv6Prefix: number): string {
  const value = withoutPort(address ?? '');
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) return ipaddr.IPv4.parse(value).toString();
  if (ipaddr.IPv6.isValid(value) && !value.includes('%')) {
    const ipv6 = ipaddr.IPv6.parse(value);
    if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
    return `${networkOf(ipv6, ipv6Prefix).toString()}/${ipv6Prefix}`;
  }
  return `#${createHash('sha256').update(value).digest('base64url')}`;
}

/** An IPv4 address with a port, and a bracketed IPv6 address with or without one. */
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED_IPV6 = /^\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?$/;

/** The address without the port a proxy may have written after it (X-Forwarded-For). */
function withoutPort(value: string): string {
  return (IPV4_WITH_PORT.exec(value) ?? BRACKETED_IPV6.exec(value))?.[1] ?? value;
}

/** Bits of the wider IPv6 network whose sign-in failures of a name are also counted together. */
export const LOCKOUT_IPV6_NETWORK_PREFIX = 48;

/**
 * The key of the wider network a client key belongs to, for the sign-in budgets: an IPv6 client's
 * /48 (LOCKOUT_IPV6_NETWORK_PREFIX: what tunnel brokers and many home lines hand one customer),
 * so that the /64s of one allocation share one budget per name. Null when there is none wider:
 * an IPv4 address, a digest, or a client key already that wide (CLIENT_IPV6_PREFIX_LENGTH ≤ 48).
 */
export function widerNetworkKey(client: string): string | null {
  const slash = client.lastIndexOf('/');
  if (slash === -1) return null;
  const prefix = Number(client.slice(slash + 1));
  if (!(prefix > LOCKOUT_IPV6_NETWORK_PREFIX)) return null;
  const network = networkOf(ipaddr.IPv6.parse(client.slice(0, slash)), LOCKOUT_IPV6_NETWORK_PREFIX);
  return `${network.toString()}/${LOCKOUT_IPV6_NETWORK_PREFIX}`;
}

function networkOf(address: ipaddr.IPv6, prefix: number): ipaddr.IPv6 {
  const bytes = address.toByteArray();
  for (let bit = prefix; bit < 128; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  return new ipaddr.IPv6(bytes);
}

/** The raw request of a request whose client key is known (the request log reads it). */
export interface WithClientKey {
  clientKey?: string;
}

/**
 * Puts every request's clientKey (of the address TRUST_PROXY resolved) on the raw request, where
 * the request log's serializer finds it: the log's `client` is the key the limits count.
 */
export function recordClientKeys(fastify: FastifyInstance, ipv6Prefix: number): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    (request.raw as WithClientKey).clientKey = clientKey(request.ip, ipv6Prefix);
    done();
  });
}
