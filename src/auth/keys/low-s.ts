/** Order of the P-256 curve (ES256): an ECDSA signature (r, s) and (r, n − s) both verify. */
const CURVE_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');
/** A JWS ES256 signature is r and s, 32 bytes each, big-endian (RFC 7518 §3.4). */
const PART = 32;
/** n / 2 (rounded down) as 32 big-endian bytes: s is high when its bytes compare above these. */
const HALF_ORDER = Buffer.from((CURVE_ORDER >> 1n).toString(16).padStart(2 * PART, '0'), 'hex');

/** The signature's r and s, or undefined when it is not 64 bytes (not an ES256 signature). */
function signatureOf(jws: string): { head: string; r: Buffer; s: Buffer } | undefined {
  const dot = jws.lastIndexOf('.');
  if (dot < 0) return undefined;
  const signature = Buffer.from(jws.slice(dot + 1), 'base64url');
  if (signature.length !== 2 * PART) return undefined;
  return {
    head: jws.slice(0, dot + 1),
    r: signature.subarray(0, PART),
    s: signature.subarray(PART),
  };
}

/** Same-length big-endian bytes compare as the numbers they encode. */
const isHigh = (s: Buffer): boolean => Buffer.compare(s, HALF_ORDER) > 0;

/**
 * An ES256 token with the low-s form of its signature (s ≤ n/2). Node's ECDSA gives either half
 * at random; with this, a token the service issues has exactly one valid encoding, so anything
 * that keys on the token string (a deny list, a cache, logs) sees one token, not two.
 */
export function withLowS(jws: string): string {
  const parts = signatureOf(jws);
  if (!parts || !isHigh(parts.s)) return jws;
  const s = CURVE_ORDER - BigInt(`0x${parts.s.toString('hex')}`);
  const low = Buffer.from(s.toString(16).padStart(2 * PART, '0'), 'hex');
  return parts.head + Buffer.concat([parts.r, low]).toString('base64url');
}

/**
 * True when an ES256 token's signature is in its high-s form (refused: not as we issue it).
 * Checked on every bearer request: a byte comparison, no BigInt.
 */
export function hasHighS(jws: string): boolean {
  const parts = signatureOf(jws);
  return parts !== undefined && isHigh(parts.s);
}
