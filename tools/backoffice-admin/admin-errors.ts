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

/** MySQL's "<command> command denied to user … for table" (ER_TABLEACCESS_DENIED_ERROR). */
const TABLE_ACCESS_DENIED = 1142;
/** The same for a column (ER_COLUMNACCESS_DENIED_ERROR). */
const COLUMN_ACCESS_DENIED = 1143;

/**
 * The grant a database error says the account lacks, as `INSERT on bo_users`, or undefined when
 * the error is not a denied command (errors 1142 and 1143; TypeORM copies the driver's fields).
 */
export function missingGrant(error: unknown): string | undefined {
  const { errno, sqlMessage } = (error ?? {}) as { errno?: unknown; sqlMessage?: unknown };
  if (errno !== TABLE_ACCESS_DENIED && errno !== COLUMN_ACCESS_DENIED) return undefined;
  // MariaDB: "INSERT command denied to user 'u'@'h' for table `db`.`bo_users`"; MySQL quotes
  // the table alone: "... for table 'bo_users'".
  const match =
    /^(\w+) command denied to user .* for table [`']?(?:[^`'.]+[`']?\.[`']?)?([^`'.]+)[`']?$/.exec(
      String(sqlMessage),
    );
  // A column: "SELECT command denied to user 'u'@'h' for column 'id' in table 'admin_api_users'".
  const column =
    /^(\w+) command denied to user .* for column [`']?([^`']+)[`']? in table [`']?([^`']+)[`']?$/.exec(
      String(sqlMessage),
    );
  const grant = match
    ? `${match[1]} on ${match[2]}`
    : column
      ? `${column[1]} on ${column[3]} (column ${column[2]})`
      : 'a grant';
  const name =
    errno === TABLE_ACCESS_DENIED ? 'ER_TABLEACCESS_DENIED_ERROR' : 'ER_COLUMNACCESS_DENIED_ERROR';
  return `${grant} (MySQL error ${errno}, ${name})`;
}

/** The account of DATABASE_URL lacks a grant: which, and the script that gives them all. */
export const grantMissing = (grant: string): AdminError =>
  databaseError(
    `The database account lacks ${grant}: run the admin command as the account of ` +
      'sql/admin-account.sql (docs/operations.md, "Least-privilege database accounts").',
  );
