/** Characters a POSIX shell takes literally; any other makes an argument quoted. */
const PLAIN = /^[\w@%+=:,./-]+$/;

/** One argument as a POSIX shell reads it back: as is, or in single quotes. */
export const shellQuoted = (arg: string): string =>
  PLAIN.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * After an interrupted `export … --out FILE`: the exact command that goes on where it stopped,
 * the same arguments plus --resume, run as this tool was (POS_READ_COMMAND, set by
 * `npm run pos-read`; else `pos-read`). Credentials are never on the command line, so none is
 * printed.
 */
export function resumeHint(argv: string[], env: Record<string, string | undefined>): string {
  const args = argv.includes('--resume') ? argv : [...argv, '--resume'];
  const command = env.POS_READ_COMMAND || 'pos-read';
  return `To go on where it stopped, run:\n  ${command} ${args.map(shellQuoted).join(' ')}\n`;
}
