import type { AdminCommand } from './admin-command';
import { str } from './admin-command';
import { usageError } from './admin-errors';

/** An instant with its zone (2026-11-25T01:00:00Z), as epoch seconds; not in the future. */
function instantOf(text: string, now: number): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    throw usageError(`--before takes a date-time with its zone, e.g. 2026-11-25T01:00:00Z.`);
  }
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || ms > now) throw usageError('--before is not a past date-time.');
  return Math.floor(ms / 1000);
}

/** The emergency action for a leaked token (docs/auth.md, "Revoking tokens"). */
export const TOKEN_COMMANDS: AdminCommand[] = [
  {
    name: 'revoke-tokens',
    args: [],
    summary: 'Revoke issued tokens now: every token of a user issued until --before, or one --jti.',
    details: [
      'For a leaked token. Every instance refuses them with 401 within TOKEN_REVOCATION_REFRESH_MS',
      '(5 s). A token issued later is valid. disable and revoke-shop never revoke issued tokens.',
      'Example: npm run backoffice -- revoke-tokens --user alice',
    ],
    options: {
      user: { value: 'username', help: "revoke this user's tokens" },
      before: { value: 'time', help: 'only those issued until then (default: now), with zone' },
      jti: { value: 'id', help: 'revoke the one token with this jti claim' },
    },
    writes: true,
    async run({ repo, options, io }) {
      const [username, jti, before] = [str(options.user), str(options.jti), str(options.before)];
      if ((username === undefined) === (jti === undefined))
        throw usageError('revoke-tokens needs --user NAME or --jti ID (one of them).');
      if (jti !== undefined) {
        if (before !== undefined) throw usageError('--before goes with --user, not --jti.');
        await repo.revocations.revokeToken(jti);
        io.out(`Revoked the token ${jti}.`);
        return;
      }
      const user = await repo.users.user(username as string);
      const now = Date.now();
      const until = before === undefined ? Math.floor(now / 1000) : instantOf(before, now);
      await repo.revocations.revokeUserTokens(user.id, until, now);
      io.out(
        `Revoked the tokens of ${user.username} issued until ${new Date(until * 1000).toISOString()}.`,
      );
    },
  },
];
