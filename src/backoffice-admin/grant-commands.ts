import { AdminCommand, done } from './admin-command';

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
  {
    name: 'grant-role',
    args: ['username', 'role'],
    summary: 'Grant a role (ApiUser opens the API to the user).',
    details: ['Takes effect on the next token: tokens already issued keep their roles.'],
    writes: true,
    async run({ repo, args: [username, role], io }) {
      const user = await repo.users.user(username);
      done(
        io,
        await repo.grants.grantRole(user, role),
        `Granted ${role} to ${user.username}.`,
        `${user.username} has ${role}`,
      );
    },
  },
  {
    name: 'revoke-role',
    args: ['username', 'role'],
    summary: 'Revoke a role.',
    details: ['Takes effect on the next token: tokens already issued keep their roles.'],
    writes: true,
    async run({ repo, args: [username, role], io }) {
      const user = await repo.users.user(username);
      done(
        io,
        await repo.grants.revokeRole(user, role),
        `Revoked ${role} from ${user.username}.`,
        `${user.username} does not have ${role}`,
      );
    },
  },
  {
    name: 'grant-shop',
    args: ['username', 'shop...'],
    summary: 'Grant one or more shops (by code).',
    details: ['Takes effect on the next token. Nothing is written when any shop is unknown.'],
    writes: true,
    async run({ repo, args: [username, ...shops], io }) {
      const user = await repo.users.user(username);
      for (const shop of shops) {
        done(
          io,
          await repo.grants.grantShop(user, shop),
          `Granted shop ${shop} to ${user.username}.`,
          `${user.username} has shop ${shop}`,
        );
      }
    },
  },
  {
    name: 'revoke-shop',
    args: ['username', 'shop...'],
    summary: 'Revoke one or more shops (by code).',
    details: ['Takes effect on the next token. Nothing is written when any shop is unknown.'],
    writes: true,
    async run({ repo, args: [username, ...shops], io }) {
      const user = await repo.users.user(username);
      for (const shop of shops) {
        done(
          io,
          await repo.grants.revokeShop(user, shop),
          `Revoked shop ${shop} from ${user.username}.`,
          `${user.username} does not have shop ${shop}`,
        );
      }
    },
  },
];
