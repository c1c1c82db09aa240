import { TOKEN_LIFETIME_SECONDS } from '../../src/config/limits';

/** --help of the commands that print the note below. */
export const ISSUED_TOKENS_DETAILS = [
  `Tokens already issued keep working until they expire (${TOKEN_LIFETIME_SECONDS / 3600} hours after their`,
  'sign-in); the command prints when the last of them does. revoke-tokens --user ends them now.',
];

/** The username as one shell word, for a command to copy. */
const shellWord = (text: string): string =>
  /^[\w.@+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * What `disable`, `revoke-shop` and `revoke-role` print after a change (contract rules 5 and 6):
 * the tokens the user already holds are self-contained and keep working, with what they say,
 * until their `exp`. A token signed this second expires TOKEN_LIFETIME_SECONDS later, so that is
 * the last moment one of them works; the service refuses it from that second on (no tolerance
 * on exp). The service checks no user, role or shop per request: only the emergency
 * revocations of `revoke-tokens` end a token sooner (src/auth/jwt.strategy.ts).
 */
export function issuedTokensNote(username: string, what: string, now = Date.now()): string[] {
  const lastExpiry = new Date((Math.floor(now / 1000) + TOKEN_LIFETIME_SECONDS) * 1000);
  return [
    `Tokens already issued to ${username} keep working${what} until they expire,`,
    `${TOKEN_LIFETIME_SECONDS / 3600} hours after their sign-in: the last of them by ${lastExpiry.toISOString()}.`,
    `To end them now: npm run backoffice -- revoke-tokens --user ${shellWord(username)}`,
    '(every instance refuses them within TOKEN_REVOCATION_REFRESH_MS, 5 s by default).',
  ];
}
