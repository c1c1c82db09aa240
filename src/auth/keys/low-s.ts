/** Order of the P-256 curve (ES256): an ECDSA signature (r, s) and (r, n − s) both verify. */
const CURVE_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');
const HALF_ORDER = CURVE_ORDER >> 1n;
/** A JWS ES256 signature is r and s, 32 bytes each, big-endian (RFC 7518 §3.4). */
const PART = 32;

function signatureOf(jws: string): { head: string; r: Buffer; s: bigint } | undefined {
  const dot = jws.lastIndexOf('.');
  const signature = Buffer.from(jws.slice(dot + 1), 'base64url');
  if (dot < 0 || signature.length !== 2 * PART) return undefined;
  const s = BigInt(`0x${signature.subarray(PART).toString('hex')}`);
  return { head: jws.slice(0, dot + 1), r: signature.subarray(0, PART), s };
}

/**
 * An ES256 token with the low-s form of its signature (s ≤ n/2). Node's ECDSA gives either half
 * at random; with this, a token the service issues has exactly one valid encoding, so anything
 * that keys on the token string (a deny list, a cache, logs) sees one token, not two.
 */
export function withLowS(jws: string): string {
  const parts = signatureOf(jws);
  if (!parts || parts.s <= HALF_ORDER) return jws;
  const s = Buffer.from((CURVE_ORDER - parts.s).toString(16).padStart(2 * PART, '0'), 'hex');
  return parts.head + Buffer.concat([parts.r, s]).toString('base64url');
}

/** True when an ES256 token's signature is in its high-s form (refused: not as we issue it). */
export function hasHighS(jws: string): boolean {
  const parts = signatureOf(jws);
  return parts !== undefined && parts.s > HALF_ORDER;
}
