/**
 * The last line of defence against secrets in the log: every JSON line passes through
 * `scrubLogLine` just before it is written (pino's `hooks.streamWrite`), whatever logged it
 * (request logs, error logs with nested driver errors, messages, bodies someone might add).
 * Structured fields are redacted earlier by pino's `redact` paths; this catches the rest.
 */

/** JSON keys whose string values never reach the log, at any depth. */
const SECRET_KEYS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'password',
  'passwd',
  'password_hash',
  'passwordHash',
  'newPassword',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'secret',
  'client_secret',
  'api_key',
  'x-api-key',
  'privateKey',
  'private_key',
] as const;

export const REDACTED = '[Redacted]';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** "key": "value" where value is a JSON string (escapes included). */
const SECRET_FIELD = new RegExp(
  `"(${SECRET_KEYS.map(escapeRegExp).join('|')})"\\s*:\\s*"(?:[^"\\\\]|\\\\.)*"`,
  'gi',
);

/** Values that are secrets by their shape, wherever they appear (messages, URLs, SQL...). */
const SECRET_SHAPES: Array<[RegExp, string]> = [
  // Secrets in a query string.
  [/([?&](?:access_token|token|password|secret)=)[^&\s"\\#]*/gi, `$1${REDACTED}`],
  // JSON Web Tokens (header and payload are base64url JSON objects: "eyJ").
  [/eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '[Redacted JWT]'],
  // Credentials in an Authorization-like value.
  [/\b(Bearer|Basic)\s+[^\s"\\,]+/gi, `$1 ${REDACTED}`],
  // Password hashes: argon2 PHC strings, bcrypt, ASP.NET Core Identity v3 and v2 (base64).
  [/\$argon2(?:id|i|d)\$[A-Za-z0-9$=,+/.-]+/g, '[Redacted hash]'],
  [/\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}/g, '[Redacted hash]'],
  [/(?<![A-Za-z0-9+/])AQAAAA[A-Za-z0-9+/]{40,}={0,2}/g, '[Redacted hash]'],
  [/(?<![A-Za-z0-9+/])A[A-Za-z0-9+/]{65}==/g, '[Redacted hash]'],
  // PEM private keys (JWT signing keys).
  [
    /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
    '[Redacted private key]',
  ],
];

/** Returns the log line with every secret-looking value replaced. */
export function scrubLogLine(line: string): string {
  let out = line.replace(SECRET_FIELD, (_match, key: string) => `"${key}":"${REDACTED}"`);
  for (const [pattern, replacement] of SECRET_SHAPES) out = out.replace(pattern, replacement);
  return out;
}
