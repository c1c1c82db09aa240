import { unauthorized } from '../common/errors/problem';

/** `Bearer`, exactly one space, a compact JWS (three base64url parts; the last may be empty). */
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/;

/**
 * The token of an Authorization header, or a 401 saying what is wrong with the header.
 * passport-jwt's own extractor accepts any case, any spacing and trailing text; this one is
 * anchored, as the contract requires exactly `Bearer <token>`.
 */
export function bearerTokenOf(header: string | string[] | undefined): string {
  if (header === undefined || header === '') {
    throw unauthorized(
      'The Authorization header is missing: send "Authorization: Bearer <token>".',
    );
  }
  if (Array.isArray(header))
    throw unauthorized('Send exactly one Authorization header.', 'invalid_token');
  const match = BEARER.exec(header);
  if (!match) {
    throw unauthorized(
      'The Authorization header must be exactly "Bearer", one space, then the token.',
      'invalid_token',
    );
  }
  return match[1];
}
