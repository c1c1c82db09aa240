import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { HASH_COST_CEILINGS } from './hash-cost-ceilings';
import { decodeStrictBase64 } from './strict-base64';

const pbkdf2Async = promisify(pbkdf2);

/** Above the ceiling a v3 hash is refused without hashing (PasswordVerifier runs the dummy). */
export const ASPNET_V3_MAX_ITERATIONS = HASH_COST_CEILINGS.pbkdf2Iterations;

/** KeyDerivationPrf: 0 = HMACSHA1, 1 = HMACSHA256, 2 = HMACSHA512. */
const PRF_DIGESTS: readonly string[] = ['sha1', 'sha256', 'sha512'];
const V3_MARKER = 0x01;
const V3_HEADER_LENGTH = 13;
/** Same minimums as ASP.NET Core's PasswordHasher (128 bits each); subkey capped at SHA-512 size. */
const MIN_SALT_LENGTH = 16;
const MIN_SUBKEY_LENGTH = 16;
const MAX_SUBKEY_LENGTH = 64;

const V2_MARKER = 0x00;
const V2_SALT_LENGTH = 16;
const V2_SUBKEY_LENGTH = 32;
const V2_ITERATIONS = 1000;

interface Pbkdf2Params {
  digest: string;
  iterations: number;
  salt: Buffer;
  subkey: Buffer;
}

function parseV3(hash: string): Pbkdf2Params | undefined {
  const bytes = decodeStrictBase64(hash);
  if (!bytes || bytes.length < V3_HEADER_LENGTH || bytes[0] !== V3_MARKER) {
    return undefined;
  }
  const digest = PRF_DIGESTS[bytes.readUInt32BE(1)];
  const iterations = bytes.readUInt32BE(5);
  const saltLength = bytes.readUInt32BE(9);
  const subkeyLength = bytes.length - V3_HEADER_LENGTH - saltLength;
  if (
    digest === undefined ||
    iterations < 1 ||
    iterations > ASPNET_V3_MAX_ITERATIONS ||
    saltLength < MIN_SALT_LENGTH ||
    subkeyLength < MIN_SUBKEY_LENGTH ||
    subkeyLength > MAX_SUBKEY_LENGTH
  ) {
    return undefined;
  }
  const saltEnd = V3_HEADER_LENGTH + saltLength;
  return {
    digest,
    iterations,
    salt: bytes.subarray(V3_HEADER_LENGTH, saltEnd),
    subkey: bytes.subarray(saltEnd),
  };
}

function parseV2(hash: string): Pbkdf2Params | undefined {
  const bytes = decodeStrictBase64(hash);
  if (!bytes || bytes.length !== 1 + V2_SALT_LENGTH + V2_SUBKEY_LENGTH || bytes[0] !== V2_MARKER) {
    return undefined;
  }
  return {
    digest: 'sha1',
    iterations: V2_ITERATIONS,
    salt: bytes.subarray(1, 1 + V2_SALT_LENGTH),
    subkey: bytes.subarray(1 + V2_SALT_LENGTH),
  };
}

async function matches(password: string, params: Pbkdf2Params | undefined): Promise<boolean> {
  if (!params || typeof password !== 'string') {
    return false;
  }
  const { digest, iterations, salt, subkey } = params;
  try {
    // Identity hashes the UTF-8 bytes of the password, which is what Node does for strings.
    const derived = await pbkdf2Async(password, salt, iterations, subkey.length, digest);
    // Stryker disable BlockStatement: the catch is unreachable: parseV2/parseV3 admit only a known digest, 1 to 2,000,000 iterations and a 16-64 byte subkey, on which pbkdf2 and timingSafeEqual do not throw
    return timingSafeEqual(derived, subkey);
  } catch {
    // Stryker restore BlockStatement
    // Stryker disable next-line BooleanLiteral: unreachable, as the catch above
    return false;
  }
}

/** ASP.NET Core Identity v3 (PasswordHasherCompatibilityMode.IdentityV3). */
export async function verifyAspNetIdentityV3(password: string, hash: string): Promise<boolean> {
  return matches(password, typeof hash === 'string' ? parseV3(hash) : undefined);
}

/** ASP.NET Identity v2 (PBKDF2-HMAC-SHA1, 1000 iterations, 16-byte salt, 32-byte subkey). */
export async function verifyAspNetIdentityV2(password: string, hash: string): Promise<boolean> {
  return matches(password, typeof hash === 'string' ? parseV2(hash) : undefined);
}
