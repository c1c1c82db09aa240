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
  // Several headers are as malformed as one bad one: the same answer, whatever their order.
  const match = Array.isArray(header) ? null : BEARER.exec(header);
  if (match) return match[1];
  // The header's form is right (`Bearer`, one space, one word): the word is not a token.
  if (!Array.isArray(header) && /^Bearer \S+$/.test(header)) {
    throw unauthorized(
      'The bearer token is malformed: a token is three base64url parts joined by dots, ' +
        'as POST /api/v1.0/Token returns it.',
      'invalid_token',
    );
  }
  // A token pasted with its prefix into a tool that adds the prefix itself (issue 46).
  if (!Array.isArray(header) && /^Bearer Bearer /i.test(header)) {
    throw unauthorized(
      'The Authorization header sends the word "Bearer" twice: send "Bearer", one space, then ' +
        'the token alone (a tool that adds "Bearer " itself was given the token with its prefix).',
      'invalid_token',
    );
  }
  throw unauthorized(
    'The Authorization header must be exactly "Bearer", one space, then the token.',
    'invalid_token',
  );
}

/**
 * The Authorization header as the client sent it: its value, or every value when it sent more
 * than one. Node's parsed `headers` keep only the first Authorization line and drop the others,
 * so the lines are counted in the raw headers.
 */
export function authorizationHeaderOf(raw: {
  rawHeaders: readonly string[];
}): string | string[] | undefined {
  const values: string[] = [];
  // Mutation testing: `i + 1 <= length` survives, and is equivalent: rawHeaders holds name and
  // value pairs, so its length is even. Not disabled: `>=`, of the same mutator, is killed.
  for (let i = 0; i + 1 < raw.rawHeaders.length; i += 2) {
    if (raw.rawHeaders[i].toLowerCase() === 'authorization') values.push(raw.rawHeaders[i + 1]);
  }
  return values.length > 1 ? values : values[0];
}
