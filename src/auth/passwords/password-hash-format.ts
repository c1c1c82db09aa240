import { decodeStrictBase64 } from './strict-base64';

export type PasswordHashFormat = 'bcrypt' | 'argon2id' | 'aspnet-v3' | 'aspnet-v2' | 'unknown';

const BCRYPT_PREFIX = /^\$2[aby]\$/;
const ARGON2ID_PREFIX = '$argon2id$';

/** ASP.NET Identity v2: 0x00 | 16-byte salt | 32-byte subkey. */
const ASPNET_V2_MARKER = 0x00;
const ASPNET_V2_LENGTH = 1 + 16 + 32;
/** ASP.NET Core Identity v3: 0x01 | prf u32be | iterations u32be | salt length u32be | ... */
const ASPNET_V3_MARKER = 0x01;
const ASPNET_V3_HEADER_LENGTH = 13;

/**
 * Classifies a stored hash by its shape only. A recognised format may still be malformed;
 * the matching verifier rejects that. Never throws.
 */
export function detectPasswordHashFormat(hash: string): PasswordHashFormat {
  if (typeof hash !== 'string' || hash.length === 0) {
    return 'unknown';
  }
  if (BCRYPT_PREFIX.test(hash)) {
    return 'bcrypt';
  }
  if (hash.startsWith(ARGON2ID_PREFIX)) {
    return 'argon2id';
  }
  const decoded = decodeStrictBase64(hash);
  if (decoded?.[0] === ASPNET_V3_MARKER && decoded.length >= ASPNET_V3_HEADER_LENGTH) {
    return 'aspnet-v3';
  }
  if (decoded?.[0] === ASPNET_V2_MARKER && decoded.length === ASPNET_V2_LENGTH) {
    return 'aspnet-v2';
  }
  return 'unknown';
}
