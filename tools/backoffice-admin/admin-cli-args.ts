import { parseArgs, ParseArgsConfig } from 'node:util';
import { usageError } from './admin-errors';

interface OptionSpec {
  /** Name of the value in help (`--password <password>`); absent: a flag. */
  value?: string;
  /** May be given several times (values are collected). */
  repeat?: boolean;
  help: string;
}

export interface CommandSpec {
  name: string;
  /** Positional arguments; a last name ending in "..." takes one or more values. */
  args: string[];
  summary: string;
  /** Further lines of --help. */
  details?: string[];
  options?: Record<string, OptionSpec>;
  /** Writes the database: refused with APP_ENV=production unless --yes-production. */
  writes: boolean;
}

export type OptionValues = Record<string, string | string[] | true | undefined>;

export interface ParsedCommand {
  spec: CommandSpec;
  args: string[];
  options: OptionValues;
  help: boolean;
  yesProduction: boolean;
}

const PROGRAM = 'npm run backoffice --';

const YES_PRODUCTION: OptionSpec = { help: 'allow this write when APP_ENV=production' };
const HELP: OptionSpec = { help: 'show this help' };

function optionsOf(spec: CommandSpec): Record<string, OptionSpec> {
  return { ...spec.options, ...(spec.writes ? { 'yes-production': YES_PRODUCTION } : {}) };
}

/**
 * node:util's parseArgs, not strict: its tokens keep the order and spelling of the command line,
 * so the errors below name the option as the user wrote it. A valued option takes the next word
 * even when it starts with a dash; one starting with '--' is refused as a missing value.
 */
function tokensOf(argv: string[], known: Record<string, OptionSpec>) {
  const config: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } };
  for (const [name, option] of Object.entries(known)) {
    config[name] = { type: option.value ? 'string' : 'boolean', multiple: option.repeat === true };
  }
  const { tokens } = parseArgs({
    args: argv,
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return tokens;
}

function signature(spec: CommandSpec): string {
  const args = spec.args.map((a) => (a.endsWith('...') ? `<${a.slice(0, -3)}>...` : `<${a}>`));
  return [spec.name, ...args].join(' ');
}

/** `--help` of one command. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [`Usage: ${PROGRAM} ${signature(spec)} [options]`, '', spec.summary];
  if (spec.details) lines.push('', ...spec.details);
  const options = Object.entries(optionsOf(spec));
  lines.push('', 'Options:');
  for (const [name, option] of [...options, ['help', HELP] as const]) {
    const left = `--${name}${option.value ? ` <${option.value}>` : ''}`;
    lines.push(`  ${left.padEnd(28)} ${option.help}${option.repeat ? ' (repeatable)' : ''}`);
  }
  return lines.join('\n');
}

/** The general help: every command and the exit codes. */
export function generalHelp(commands: CommandSpec[]): string {
  return [
    `Usage: ${PROGRAM} <command> [arguments] [options]`,
    '',
    'Administers back-office users for the API (development, tests, demos, support): it WRITES the',
    'back-office tables of the database the service is configured with (DATABASE_URL, or the',
    'embedded SQLite database in DATA_DIR).',
    '',
    'Commands:',
    ...commands.map((c) => `  ${signature(c).padEnd(40)} ${c.summary.split('\n')[0]}`),
    '',
    `Run "${PROGRAM} <command> --help" for a command's options.`,
    'Writes are refused with APP_ENV=production unless --yes-production is given.',
    '',
    'Exit codes: 0 done, 1 usage, 2 unknown user/role/shop, 3 refused,',
    '            4 database or configuration, 5 unexpected error.',
  ].join('\n');
}

/** Parses `<command> [args] [--options]` against the command specs; throws usage errors. */
export function parseCommandLine(
  argv: readonly string[],
  commands: CommandSpec[],
): ParsedCommand | 'general-help' {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const about = rest[0] && commands.find((c) => c.name === rest[0]);
    if (name === 'help' && about) {
      return { spec: about, args: [], options: {}, help: true, yesProduction: false };
    }
    if (name === undefined) throw usageError('Missing command.');
    return 'general-help';
  }
  const spec = commands.find((c) => c.name === name);
  if (!spec) throw usageError(`Unknown command '${name}'.`);
  const known = optionsOf(spec);
  const args: string[] = [];
  const options: OptionValues = {};
  let help = false;
  const shortWords: number[] = [];
  for (const token of tokensOf(rest, known)) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      args.push(token.value);
      continue;
    }
    // A single dash is no option of ours, except -h: the word is an argument (`-x`, `-5`), once
    // however many letters parseArgs split it into.
    if (!token.rawName.startsWith('--')) {
      const word = rest[token.index];
      if (word === '-h') help = true;
      else if (shortWords.at(-1) !== token.index) {
        shortWords.push(token.index);
        args.push(word);
      }
      continue;
    }
    const key = token.name;
    const option = key === 'help' ? HELP : known[key];
    if (!option) throw usageError(`Unknown option '--${key}' for ${spec.name}.`);
    if (!option.value) {
      if (token.inlineValue) throw usageError(`Option '--${key}' takes no value.`);
      if (key === 'help') help = true;
      else options[key] = true;
      continue;
    }
    const value = token.value;
    if (value === undefined || (!token.inlineValue && value.startsWith('--'))) {
      throw usageError(`Option '--${key}' needs a value <${option.value}>.`);
    }
    if (option.repeat) options[key] = [...((options[key] as string[] | undefined) ?? []), value];
    else if (options[key] !== undefined) throw usageError(`Option '--${key}' is given twice.`);
    else options[key] = value;
  }
  if (!help) checkArgumentCount(spec, args);
  const yesProduction = options['yes-production'] === true;
  return { spec, args, options, help, yesProduction };
}

function checkArgumentCount(spec: CommandSpec, args: string[]): void {
  const variadic = spec.args.at(-1)?.endsWith('...') ?? false;
  const required = spec.args.length;
  if (args.length < required) {
    const missing = spec.args[args.length].replace(/\.\.\.$/, '');
    throw usageError(`Missing <${missing}> for ${spec.name}.`);
  }
  if (!variadic && args.length > required) {
    throw usageError(`Unexpected argument '${args[required]}' for ${spec.name}.`);
  }
  for (const arg of args) {
    if (arg.trim() === '') throw usageError(`Empty argument for ${spec.name}.`);
  }
}
