import { AdminCommand, done, JSON_OPTION } from './admin-command';
import { formatShops } from './admin-output';
import type { CommandSpec } from './admin-cli-args';
import type { AdminUser } from './admin-users.repository';
import type { BackofficeAdminRepository } from './backoffice-admin.repository';
import { ISSUED_TOKENS_DETAILS, issuedTokensNote } from './issued-tokens';

type Grant = (repo: BackofficeAdminRepository, user: AdminUser, item: string) => Promise<boolean>;

/**
 * A writing command over one user and the items after its name (one role, or shops): changes
 * each in turn and says, for each, what changed or that it already was so.
 */
function eachItem(
  spec: Omit<CommandSpec, 'writes'>,
  grant: Grant,
  said: (username: string, item: string) => { changed: string; unchanged: string },
  /** Printed after the items when one of them changed (a revocation: the tokens' lifetime). */
  afterChanges?: (username: string, changed: string[]) => string[],
): AdminCommand {
  return {
    ...spec,
    writes: true,
    async run({ repo, args: [username, ...items], io }) {
      const user = await repo.users.user(username);
      const changedItems: string[] = [];
      for (const item of items) {
        const { changed, unchanged } = said(user.username, item);
        const didChange = await grant(repo, user, item);
        if (didChange) changedItems.push(item);
        done(io, didChange, changed, unchanged);
      }
      if (afterChanges && changedItems.length > 0) {
        io.out(afterChanges(user.username, changedItems).join('\n'));
      }
    },
  };
}

/** " with shop S1, S2" for the note on issued tokens. */
const withItems = (kind: string, items: string[]): string =>
  ` with ${kind}${items.length > 1 ? 's' : ''} ${items.join(', ')}`;

const ROLE_DETAILS = ['Takes effect on the next token: tokens already issued keep their roles.'];
const SHOP_DETAILS = [
  'Takes effect on the next token. Nothing is written when any shop is unknown.',
];

/** Commands about what a user may do: roles (ApiUser opens the API) and shops. */
export const GRANT_COMMANDS: AdminCommand[] = [
  {
    name: 'list-shops',
    args: [],
    summary: 'List the shops (bo_shops) with the users each is granted to.',
    details: [
      'The codes grant-shop, revoke-shop and create-user --shop take. ACTIVE is the back',
      "office's flag: the API serves a granted shop whether it is active or not.",
    ],
    options: JSON_OPTION,
    writes: false,
    async run({ repo, options, io }) {
      const shops = await repo.grants.listShops();
      io.out(options.json ? JSON.stringify(shops, null, 2) : formatShops(shops));
    },
  },
  {
    name: 'create-role',
    args: ['role'],
    summary: 'Create a back-office role (e.g. ApiUser on a new database).',
    writes: true,
    async run({ repo, args: [role], io }) {
      done(io, await repo.grants.createRole(role), `Created role ${role}.`, `Role ${role} exists`);
    },
  },
  eachItem(
    {
      name: 'grant-role',
      args: ['username', 'role'],
      summary: 'Grant a role (ApiUser opens the API to the user).',
      details: ROLE_DETAILS,
    },
    (repo, user, role) => repo.grants.grantRole(user, role),
    (username, role) => ({
      changed: `Granted ${role} to ${username}.`,
      unchanged: `${username} has ${role}`,
    }),
  ),
  eachItem(
    {
      name: 'revoke-role',
      args: ['username', 'role'],
      summary: 'Revoke a role.',
      details: [...ROLE_DETAILS, ...ISSUED_TOKENS_DETAILS],
    },
    (repo, user, role) => repo.grants.revokeRole(user, role),
    (username, role) => ({
      changed: `Revoked ${role} from ${username}.`,
      unchanged: `${username} does not have ${role}`,
    }),
    (username, roles) => issuedTokensNote(username, withItems('role', roles)),
  ),
  eachItem(
    {
      name: 'grant-shop',
      args: ['username', 'shop...'],
      summary: 'Grant one or more shops (by code).',
      details: SHOP_DETAILS,
    },
    (repo, user, shop) => repo.grants.grantShop(user, shop),
    (username, shop) => ({
      changed: `Granted shop ${shop} to ${username}.`,
      unchanged: `${username} has shop ${shop}`,
    }),
  ),
  eachItem(
    {
      name: 'revoke-shop',
      args: ['username', 'shop...'],
      summary: 'Revoke one or more shops (by code).',
      details: [...SHOP_DETAILS, ...ISSUED_TOKENS_DETAILS],
    },
    (repo, user, shop) => repo.grants.revokeShop(user, shop),
    (username, shop) => ({
      changed: `Revoked shop ${shop} from ${username}.`,
      unchanged: `${username} does not have shop ${shop}`,
    }),
    (username, shops) => issuedTokensNote(username, withItems('shop', shops)),
  ),
];
