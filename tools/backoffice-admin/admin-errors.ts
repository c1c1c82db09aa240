/**
 * Exit codes of `npm run backoffice`, for scripts:
 *   0  done (also when there was nothing to change: granting what is already granted)
 *   1  usage: unknown command or option, missing or extra argument
 *   2  not found: unknown user, role or shop
 *   3  refused: a write with APP_ENV=production without --yes-production; a username taken;
 *      a password the policy refuses (password-policy.ts)
 *   4  database or configuration: unreachable database, missing tables, invalid environment
 *   5  unexpected error (a bug: please report it)
 */
export const ExitCode = {
  ok: 0,
  usage: 1,
  notFound: 2,
  refused: 3,
  database: 4,
  unexpected: 5,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the command means to report, with its exit code and a message for people. */
export class AdminError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
  }
}

export const usageError = (message: string): AdminError => new AdminError(ExitCode.usage, message);
export const notFound = (message: string): AdminError => new AdminError(ExitCode.notFound, message);
export const refused = (message: string): AdminError => new AdminError(ExitCode.refused, message);
export const databaseError = (message: string): AdminError =>
  new AdminError(ExitCode.database, message);
