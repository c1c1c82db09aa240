import { ValidateBy } from 'class-validator';
import { isIP } from 'node:net';

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: false (the socket's address), true (the
 * leftmost X-Forwarded-For entry, which the client writes), a number of proxy hops to trust, or
 * the proxies' addresses and CIDR ranges.
 */
export type TrustProxy = boolean | number | string[];

/** Most proxy hops TRUST_PROXY may name. */
const MAX_PROXY_HOPS = 100;

/** proxy-addr's names for the reserved ranges, accepted in an address list. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

const TRUST_PROXY_MESSAGE =
  'TRUST_PROXY must be true, false, a number of proxy hops to trust (1 to ' +
  `${MAX_PROXY_HOPS}, e.g. 1) or a comma-separated list of proxy addresses or CIDR ranges ` +
  '(e.g. 10.0.0.0/8,192.0.2.7)';

/**
 * The text of TRUST_PROXY in its shape: yes/no words as booleans ('0' is false: no hop), digits
 * as a hop count, anything else as a list of entries. Whether the values are valid is
 * IsTrustProxy's business, so a bad value becomes a start-up error naming the variable.
 */
export function toTrustProxy({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(text)) return true;
  if (['false', 'no', 'off', '', '0'].includes(text)) return false;
  if (/^\d+$/.test(text)) return Number(text);
  return text.split(',').map((entry) => entry.trim());
}

/** An IPv4 or IPv6 address, with an optional /prefix of its family's width, or a range name. */
export function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function isTrustProxy(value: unknown): value is TrustProxy {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 1 && value <= MAX_PROXY_HOPS;
  }
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((entry) => typeof entry === 'string' && isProxyAddress(entry))
  );
}

export function IsTrustProxy(): PropertyDecorator {
  return ValidateBy({
    name: 'isTrustProxy',
    validator: { validate: isTrustProxy, defaultMessage: () => TRUST_PROXY_MESSAGE },
  });
}
