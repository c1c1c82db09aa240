import { AdminCommand, done } from './admin-command';
import type { CommandSpec } from './admin-cli-args';
import type { AdminUser } from './admin-users.repository';
import type { BackofficeAdminRepository } from './backoffice-admin.repository';

type Grant = (repo: BackofficeAdminRepository, user: AdminUser, item: string) => Promise<boolean>;

/**
 * A writing command over one user and the items after its name (one role, or shops): changes
 * each in turn and says, for each, what changed or that it already was so.
 */
function eachItem(
  spec: Omit<CommandSpec, 'writes'>,
  grant: Grant,
  said: (username: string, item: string) => { changed: string; unchanged: string },
): AdminCommand {
  return {
    ...spec,
    writes: true,
    async run({ repo, args: [username, ...items], io }) {
      const user = await repo.users.user(username);
      for (const item of items) {
        const { changed, unchanged } = said(user.username, item);
        done(io, await grant(repo, user, item), changed, unchanged);
      }
    },
  };
}

const ROLE_DETAILS = ['Takes effect on the next token: tokens already issued keep their roles.'];
const SHOP_DETAILS = [
  'Takes effect on the next token. Nothing is written when any shop is unknown.',
];

/** Commands about what a user may do: roles (ApiUser opens the API) and shops. */
export const GRANT_COMMANDS: AdminCommand[] = [
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
      details: ROLE_DETAILS,
    },
    (repo, user, role) => repo.grants.revokeRole(user, role),
    (username, role) => ({
      changed: `Revoked ${role} from ${username}.`,
      unchanged: `${username} does not have ${role}`,
    }),
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
      details: SHOP_DETAILS,
    },
    (repo, user, shop) => repo.grants.revokeShop(user, shop),
    (username, shop) => ({
      changed: `Revoked shop ${shop} from ${username}.`,
      unchanged: `${username} does not have shop ${shop}`,
    }),
  ),
];
