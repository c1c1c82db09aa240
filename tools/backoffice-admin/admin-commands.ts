import type { AdminCommand } from './admin-command';
import { GRANT_COMMANDS } from './grant-commands';
import { TOKEN_COMMANDS } from './token-commands';
import { USER_COMMANDS } from './user-commands';

export type { AdminCommand, AdminIo } from './admin-command';

/** Every command of `npm run backoffice`, in the order --help lists them. */
export const COMMANDS: AdminCommand[] = [...USER_COMMANDS, ...GRANT_COMMANDS, ...TOKEN_COMMANDS];
