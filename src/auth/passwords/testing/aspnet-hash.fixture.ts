import { pbkdf2Sync, randomBytes } from 'node:crypto';

/** Test-only builders for ASP.NET Identity hashes. Never import this from production code. */

export type AspNetPrf = 0 | 1 | 2;

const PRF_DIGESTS: Record<AspNetPrf, string> = { 0: 'sha1', 1: 'sha256', 2: 'sha512' };

export interface AspNetV3Fields {
  marker?: number;
  prf: number;
  iterations: number;
  /** Written into the header; defaults to salt.length. */
  saltLength?: number;
  salt: Buffer;
  subkey: Buffer;
}

/** Serialises raw v3 fields, including deliberately inconsistent ones for malformed cases. */
export function encodeAspNetV3(fields: AspNetV3Fields): string {
  const header = Buffer.alloc(13);
  header.writeUInt8(fields.marker ?? 0x01, 0);
  header.writeUInt32BE(fields.prf, 1);
  header.writeUInt32BE(fields.iterations, 5);
  header.writeUInt32BE(fields.saltLength ?? fields.salt.length, 9);
  return Buffer.concat([header, fields.salt, fields.subkey]).toString('base64');
}

export interface AspNetV3Options {
  prf?: AspNetPrf;
  iterations?: number;
  salt?: Buffer;
  subkeyLength?: number;
}

/** Builds a genuine ASP.NET Core Identity v3 hash the way PasswordHasher<TUser> does. */
export function makeAspNetV3Hash(password: string, options: AspNetV3Options = {}): string {
  const { prf = 1, iterations = 10_000, salt = randomBytes(16), subkeyLength = 32 } = options;
  const subkey = pbkdf2Sync(password, salt, iterations, subkeyLength, PRF_DIGESTS[prf]);
  return encodeAspNetV3({ prf, iterations, salt, subkey });
}

/** Builds a genuine ASP.NET Identity v2 hash (PBKDF2-HMAC-SHA1, 1000 iterations). */
export function makeAspNetV2Hash(password: string, salt: Buffer = randomBytes(16)): string {
  const subkey = pbkdf2Sync(password, salt, 1000, 32, 'sha1');
  return Buffer.concat([Buffer.from([0x00]), salt, subkey]).toString('base64');
}
