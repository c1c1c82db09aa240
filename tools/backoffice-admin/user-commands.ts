import { hashPassword } from '../../src/common/passwords/password-hasher';
import type { OptionValues } from './admin-cli-args';
import { AdminCommand, AdminIo, done, JSON_OPTION, list, str } from './admin-command';
import { refused, usageError } from './admin-errors';
import { formatList, formatUser, UserReport } from './admin-output';
import type { AdminUser } from './admin-users.repository';
import type { BackofficeAdminRepository } from './backoffice-admin.repository';
import { ISSUED_TOKENS_DETAILS, issuedTokensNote } from './issued-tokens';
import { checkPassword, PASSWORD_MIN_LENGTH } from './password-policy';

async function report(repo: BackofficeAdminRepository, user: AdminUser): Promise<UserReport> {
  return {
    ...user,
    roles: await repo.grants.rolesOf(user),
    shops: await repo.grants.shopsOf(user),
    lock: await repo.locks.lockState(user.username),
  };
}

/** The password of create-user, from standard input or --password, checked against the policy. */
async function readPassword(username: string, options: OptionValues, io: AdminIo): Promise<string> {
  const given = str(options.password);
  if (given !== undefined && options['password-stdin']) {
    throw usageError('Give --password-stdin or --password, not both.');
  }
  if (given !== undefined) {
    io.err(
      'Warning: --password is visible in the process list and shell history; prefer --password-stdin.',
    );
  }
  const password =
    given ?? (options['password-stdin'] ? (await io.readStdin()).replace(/\r?\n$/, '') : undefined);
  if (password === undefined)
    throw usageError('create-user needs --password-stdin (or --password).');
  if (password.length === 0) throw usageError('The password is empty.');
  checkPassword(username, password);
  return password;
}

/** Commands about users themselves: create, enable, disable, show, unlock, list. */
export const USER_COMMANDS: AdminCommand[] = [
  {
    name: 'create-user',
    args: ['username'],
    summary: 'Create a back-office user, its password hashed with argon2id.',
    details: [
      'Example: printf %s "$PASSWORD" | npm run backoffice -- create-user alice \\',
      '           --password-stdin --role ApiUser --shop SHOP001 --shop SHOP002',
      'Roles and shops must exist. Nothing is written when any of them is unknown.',
      `The password has at least ${PASSWORD_MIN_LENGTH} characters, neither is nor contains the`,
      'username, and is not a common password, a repetition or a sequence; a refused password',
      'exits 3 and writes nothing.',
    ],
    options: {
      'password-stdin': { help: 'read the password from standard input (recommended)' },
      password: { value: 'password', help: 'the password (visible in the process list)' },
      'display-name': { value: 'name', help: 'display name' },
      email: { value: 'email', help: 'e-mail address' },
      role: { value: 'role', repeat: true, help: 'grant this role, e.g. ApiUser' },
      shop: { value: 'code', repeat: true, help: 'grant this shop' },
      disabled: { help: 'create the user disabled' },
    },
    writes: true,
    prepare: async ({ args: [username], options, io }) =>
      hashPassword(await readPassword(username, options, io)),
    async run({ repo, args: [username], options, io, prepared }) {
      if (username.length > 64) throw usageError('A username has at most 64 characters.');
      if (await repo.users.findUser(username))
        throw refused(`The username '${username}' is taken.`);
      const user = await repo.users.createUser({
        username,
        passwordHash: prepared as string,
        displayName: str(options['display-name']),
        email: str(options.email),
        enabled: options.disabled !== true,
      });
      for (const role of list(options.role)) await repo.grants.grantRole(user, role);
      for (const shop of list(options.shop)) await repo.grants.grantShop(user, shop);
      io.out(`Created user ${user.username} (id ${user.id}).`);
    },
  },
  {
    name: 'enable',
    args: ['username'],
    summary: 'Enable a user: it may sign in again.',
    writes: true,
    async run({ repo, args: [username], io }) {
      const user = await repo.users.user(username);
      done(
        io,
        await repo.users.setEnabled(user, true),
        `Enabled ${user.username}.`,
        `${user.username} is enabled`,
      );
    },
  },
  {
    name: 'disable',
    args: ['username'],
    summary:
      'Disable a user: sign-in is refused (tokens already issued stay valid until they expire).',
    details: ISSUED_TOKENS_DETAILS,
    writes: true,
    async run({ repo, args: [username], io }) {
      const user = await repo.users.user(username);
      const changed = await repo.users.setEnabled(user, false);
      done(io, changed, `Disabled ${user.username}.`, `${user.username} is disabled`);
      if (changed) io.out(issuedTokensNote(user.username, '').join('\n'));
    },
  },
  {
    name: 'show',
    args: ['username'],
    summary: 'Show a user: enabled, roles, shops and sign-in lock state.',
    options: JSON_OPTION,
    writes: false,
    async run({ repo, args: [username], options, io }) {
      const user = await report(repo, await repo.users.user(username));
      io.out(options.json ? JSON.stringify(user, null, 2) : formatUser(user));
    },
  },
  {
    name: 'unlock',
    args: ['username'],
    summary: "Clear a username's sign-in failures and lock (the service's api_login_failures row).",
    details: [
      'Any spelling the back-office finds the user with (case, accents, trailing spaces) clears',
      "that user's failures. Works for usernames that do not exist too: the service locks any",
      'name it is tried with.',
    ],
    writes: true,
    async run({ repo, args: [username], io }) {
      const cleared = await repo.locks.unlock(username);
      if (!cleared && !(await repo.users.findUser(username))) await repo.users.user(username);
      done(
        io,
        cleared,
        `Cleared the sign-in failures of ${username}.`,
        `${username} has no sign-in failures`,
      );
    },
  },
  {
    name: 'list',
    args: [],
    summary: 'List the users with their state, roles and number of shops.',
    options: JSON_OPTION,
    writes: false,
    async run({ repo, options, io }) {
      const users: UserReport[] = [];
      for (const user of await repo.users.listUsers()) users.push(await report(repo, user));
      io.out(options.json ? JSON.stringify(users, null, 2) : formatList(users));
    },
  },
];
