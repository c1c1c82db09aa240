import type { CommandSpec, OptionValues } from './admin-cli-args';
import type { BackofficeAdminRepository } from './backoffice-admin.repository';

export interface AdminIo {
  out(text: string): void;
  err(text: string): void;
  /** Everything on standard input (for --password-stdin). */
  readStdin(): Promise<string>;
}

interface CommandContext {
  repo: BackofficeAdminRepository;
  args: string[];
  options: OptionValues;
  io: AdminIo;
  /** Set before the transaction by `prepare` (create-user hashes outside it). */
  prepared?: string;
}

export interface AdminCommand extends CommandSpec {
  /** Work done before the database is opened (reading and hashing a password). */
  prepare?(ctx: Omit<CommandContext, 'repo' | 'prepared'>): Promise<string>;
  run(ctx: CommandContext): Promise<void>;
}

export const JSON_OPTION = { json: { help: 'print JSON instead of text (for scripts)' } };

export const list = (value: OptionValues[string]): string[] => (Array.isArray(value) ? value : []);
export const str = (value: OptionValues[string]): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Says what changed, or that there was nothing to do (still a success). */
export function done(io: AdminIo, changed: boolean, what: string, unchanged: string): void {
  io.out(changed ? what : `${unchanged}: nothing to do.`);
}
