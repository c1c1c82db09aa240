import { FastifyAdapter } from '@nestjs/platform-fastify';
import {
  clientKey,
  LOCKOUT_IPV6_NETWORK_PREFIX,
  recordClientKeys,
  widerNetworkKey,
  type WithClientKey,
} from './client-key';

describe(clientKey.name, () => {
  it('should keep an IPv4 address as written', () => {
    expect(clientKey('203.0.113.9', 64)).toBe('203.0.113.9');
  });

  it('should key an IPv4-mapped IPv6 address as the IPv4 address it maps', () => {
    expect(clientKey('::ffff:203.0.113.9', 64)).toBe('203.0.113.9');
    expect(clientKey('::FFFF:cb00:7109', 64)).toBe('203.0.113.9');
  });

  it('should key an IPv6 address by its network of the configured prefix', () => {
    expect(clientKey('2001:DB8:0:1::40', 64)).toBe('2001:db8:0:1::/64');
    expect(clientKey('2001:db8:0:1:ffff:ffff:ffff:ffff', 64)).toBe('2001:db8:0:1::/64');
    expect(clientKey('2001:db8:0:1::40', 48)).toBe('2001:db8::/48');
    expect(clientKey('2001:db8:0:1::40', 128)).toBe('2001:db8:0:1::40/128');
    expect(clientKey('2001:db8:abcd:12ff::1', 60)).toBe('2001:db8:abcd:12f0::/60');
  });

  it('should drop the port a proxy wrote after an address, and the brackets of an IPv6 address', () => {
    expect(clientKey('203.0.113.5:1001', 64)).toBe('203.0.113.5');
    expect(clientKey('203.0.113.5:65535', 64)).toBe('203.0.113.5');
    expect(clientKey('[2001:db8:0:1::40]:1001', 64)).toBe('2001:db8:0:1::/64');
    expect(clientKey('[2001:db8:0:1::40]', 64)).toBe('2001:db8:0:1::/64');
    expect(clientKey('[::ffff:203.0.113.5]:80', 64)).toBe('203.0.113.5');
    // Not an address with a port: still a digest, never an address.
    for (const odd of ['203.0.113.5:', '203.0.113.5:123456', 'x203.0.113.5:1', '[2001:db8::1]:x']) {
      expect([odd, clientKey(odd, 64)]).toEqual([odd, expect.stringMatching(/^#/)]);
    }
  });

  it('should turn anything that is not an address into a fixed-width digest', () => {
    const keys = ['not an address', '', 'fe80::1%eth0', '1.2.3'].map((v) => clientKey(v, 64));
    for (const key of keys) expect(key).toMatch(/^#[A-Za-z0-9_-]{43}$/);
    expect(clientKey(undefined, 64)).toBe(clientKey('', 64));
  });

  it('should always fit the 64 ASCII characters of api_login_failures.client_key', () => {
    expect(clientKey('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 128).length).toBeLessThanOrEqual(
      64,
    );
  });
});

describe(widerNetworkKey.name, () => {
  it("should give an IPv6 client key's /48, and nothing for a key that has no wider network", () => {
    expect(widerNetworkKey('2001:db8:44:1::/64')).toBe('2001:db8:44::/48');
    expect(widerNetworkKey('2001:db8:44:ffff:1:2:3:4/128')).toBe('2001:db8:44::/48');
    expect(widerNetworkKey('2001:db8:44:1::/49')).toBe('2001:db8:44::/48');
    expect(widerNetworkKey('2001:db8::/48')).toBeNull();
    expect(widerNetworkKey('2001:db8::/32')).toBeNull();
    expect(widerNetworkKey('203.0.113.9')).toBeNull();
    expect(widerNetworkKey(clientKey('not an address', 64))).toBeNull();
    expect(LOCKOUT_IPV6_NETWORK_PREFIX).toBe(48);
  });
});

describe(recordClientKeys.name, () => {
  it("should put every request's client key on its raw request, where the request log reads it", async () => {
    const fastify = new FastifyAdapter().getInstance();
    recordClientKeys(fastify, 48);
    fastify.get('/', (request, reply) => {
      void reply.send({ client: (request.raw as WithClientKey).clientKey });
    });
    try {
      const ipv6 = await fastify.inject({ url: '/', remoteAddress: '2001:db8:0:1::40' });
      expect(ipv6.json()).toEqual({ client: '2001:db8::/48' });
      const ipv4 = await fastify.inject({ url: '/', remoteAddress: '203.0.113.9' });
      expect(ipv4.json()).toEqual({ client: '203.0.113.9' });
    } finally {
      await fastify.close();
    }
  });
});
