/** Longest stored hash we are willing to decode (the column is VARCHAR(255)). */
const MAX_ENCODED_LENGTH = 1024;

const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes canonical, padded, standard-alphabet base64 (what .NET's Convert.ToBase64String emits).
 * Returns undefined instead of silently skipping bad characters like Buffer.from(s, 'base64') does.
 */
export function decodeStrictBase64(value: string): Buffer | undefined {
  if (value.length === 0 || value.length > MAX_ENCODED_LENGTH || !BASE64_PATTERN.test(value)) {
    return undefined;
  }
  const decoded = Buffer.from(value, 'base64');
  // Rejects non-zero padding bits, so exactly one string maps to each byte sequence.
  return decoded.toString('base64') === value ? decoded : undefined;
}
