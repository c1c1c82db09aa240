import { loadConfig } from './load-config';
import { isProxyAddress } from './trust-proxy';

const trustProxyOf = (value: string) =>
  loadConfig({ APP_ENV: 'development', TRUST_PROXY: value }).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it.each([
    ['true', true],
    ['on', true],
    ['false', false],
    ['', false],
    ['0', false],
  ])('should read %p as %p', (text, expected) => {
    expect(trustProxyOf(text)).toBe(expected);
  });

  it('should read a whole number as the number of proxy hops to trust, not as true', () => {
    expect(trustProxyOf('1')).toBe(1);
    expect(trustProxyOf(' 2 ')).toBe(2);
  });

  it('should read a comma-separated list as the trusted proxy addresses and CIDR ranges', () => {
    expect(trustProxyOf('10.0.0.0/8, 192.0.2.7,2001:DB8::/32,loopback')).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      '2001:db8::/32',
      'loopback',
    ]);
  });

  it.each(['maybe', '-1', '1.5', '101', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1,', '1.2.3'])(
    'should refuse %p with a message naming TRUST_PROXY and its forms',
    (text) => {
      expect(() => trustProxyOf(text)).toThrow(
        /TRUST_PROXY: TRUST_PROXY must be true, false, a number of proxy hops .* or a comma-separated list/,
      );
    },
  );
});

describe(isProxyAddress.name, () => {
  it.each(['192.0.2.7', '10.0.0.0/8', '0.0.0.0/0', '::1', 'fe80::/10', 'uniquelocal'])(
    'should accept %p',
    (entry) => {
      expect(isProxyAddress(entry)).toBe(true);
    },
  );

  it.each(['', 'proxy.example.com', '10.0.0.0/', '10.0.0.0/8/8', '10.0.0.0/x', '300.0.0.1'])(
    'should refuse %p',
    (entry) => {
      expect(isProxyAddress(entry)).toBe(false);
    },
  );
});
