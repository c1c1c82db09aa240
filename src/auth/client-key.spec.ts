import { FastifyAdapter } from '@nestjs/platform-fastify';
import { clientKey, recordClientKeys, type WithClientKey } from './client-key';

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
