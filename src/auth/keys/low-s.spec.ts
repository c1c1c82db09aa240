import { randomBytes } from 'node:crypto';
import { hasHighS, withLowS } from './low-s';

const N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');
const HALF = N / 2n;
const HEAD = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.';
const R = Buffer.alloc(32, 7);

const bytes32 = (n: bigint): Buffer => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
/** A token whose ES256 signature has this s (r fixed). */
const token = (s: bigint): string => HEAD + Buffer.concat([R, bytes32(s)]).toString('base64url');
const sOf = (jws: string): bigint =>
  BigInt(
    `0x${Buffer.from(jws.slice(jws.lastIndexOf('.') + 1), 'base64url')
      .subarray(32)
      .toString('hex')}`,
  );

describe('low-s ES256 signatures', () => {
  it.each([
    ['1', 1n, false],
    ['n/2, the highest low s', HALF, false],
    ['n/2 + 1, the lowest high s', HALF + 1n, true],
    ['n − 1', N - 1n, true],
    ['0x80… (top bit set)', 1n << 255n, true],
    ['0x7f…ff above n/2 in a lower byte', HALF + (1n << 8n), true],
  ])('should tell whether s = %s is high', (_name, s, high) => {
    expect(hasHighS(token(s))).toBe(high);
  });

  it('should agree with the arithmetic comparison s > n/2 on random signatures', () => {
    for (let i = 0; i < 2_000; i++) {
      const s = BigInt(`0x${randomBytes(32).toString('hex')}`) % N;
      expect({ s, high: hasHighS(token(s)) }).toEqual({ s, high: s > HALF });
    }
  });

  it('should not call a signature that is not 64 bytes, or no signature, high', () => {
    expect(hasHighS(HEAD + Buffer.alloc(63, 0xff).toString('base64url'))).toBe(false);
    expect(hasHighS(HEAD + Buffer.alloc(65, 0xff).toString('base64url'))).toBe(false);
    expect(hasHighS('no-dots-at-all')).toBe(false);
  });

  it('should turn a high s into n − s and leave a low s as it is', () => {
    const high = N - 12345n;
    const low = withLowS(token(high));
    expect(low.slice(0, low.lastIndexOf('.') + 1)).toBe(HEAD);
    expect(sOf(low)).toBe(12345n);
    // A small s keeps its leading zero bytes: the signature is still 64 bytes (r, then s).
    expect(Buffer.from(low.slice(low.lastIndexOf('.') + 1), 'base64url')).toHaveLength(64);
    expect(hasHighS(low)).toBe(false);
    expect(withLowS(token(HALF))).toBe(token(HALF));
    expect(withLowS(token(HALF + 1n))).toBe(token(N - HALF - 1n));
  });
});
