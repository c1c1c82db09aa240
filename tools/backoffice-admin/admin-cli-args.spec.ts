import { CommandSpec, commandHelp, generalHelp, parseCommandLine } from './admin-cli-args';
import { AdminError, ExitCode } from './admin-errors';

const COMMANDS: CommandSpec[] = [
  {
    name: 'grant-shop',
    args: ['username', 'shop...'],
    summary: 'Grant shops.',
    writes: true,
  },
  {
    name: 'create-user',
    args: ['username'],
    summary: 'Create a user.',
    options: {
      password: { value: 'password', help: 'the password' },
      role: { value: 'role', repeat: true, help: 'a role' },
      disabled: { help: 'disabled' },
    },
    writes: true,
  },
  { name: 'list', args: [], summary: 'List.', options: { json: { help: 'JSON' } }, writes: false },
];

const usage = (argv: string[]): string => {
  try {
    parseCommandLine(argv, COMMANDS);
  } catch (error) {
    expect(error).toBeInstanceOf(AdminError);
    expect((error as AdminError).exitCode).toBe(ExitCode.usage);
    return (error as Error).message;
  }
  throw new Error('no usage error');
};

describe('parseCommandLine', () => {
  it('should read arguments, valued, repeated and flag options, in any order', () => {
    expect(
      parseCommandLine(
        ['create-user', '--role', 'A', 'bob', '--role=B', '--password', 'p', '--disabled'],
        COMMANDS,
      ),
    ).toEqual({
      spec: COMMANDS[1],
      args: ['bob'],
      options: { role: ['A', 'B'], password: 'p', disabled: true },
      help: false,
      yesProduction: false,
    });
  });

  it('should take several values for a variadic argument and --yes-production on writes', () => {
    const parsed = parseCommandLine(
      ['grant-shop', 'bob', 'S1', 'S2', '--yes-production'],
      COMMANDS,
    );
    expect(parsed).toMatchObject({ args: ['bob', 'S1', 'S2'], yesProduction: true });
  });

  it('should treat everything after -- as arguments', () => {
    expect(parseCommandLine(['grant-shop', 'bob', '--', '--odd'], COMMANDS)).toMatchObject({
      args: ['bob', '--odd'],
    });
  });

  it('should take a word with a single dash as an argument, and as a value', () => {
    expect(parseCommandLine(['grant-shop', 'bob', '-x', '-5'], COMMANDS)).toMatchObject({
      args: ['bob', '-x', '-5'],
    });
    expect(
      parseCommandLine(['create-user', 'a', '--password', '-p', '--role='], COMMANDS),
    ).toMatchObject({ options: { password: '-p', role: [''] } });
  });

  it('should accept a flag given twice, and -h after arguments', () => {
    expect(parseCommandLine(['list', '--json', '--json'], COMMANDS)).toMatchObject({
      options: { json: true },
    });
    expect(parseCommandLine(['grant-shop', 'bob', 'S1', '-h'], COMMANDS)).toMatchObject({
      args: ['bob', 'S1'],
      help: true,
    });
  });

  it('should answer --help, -h and help <command> without checking arguments', () => {
    expect(parseCommandLine(['--help'], COMMANDS)).toBe('general-help');
    expect(parseCommandLine(['help'], COMMANDS)).toBe('general-help');
    expect(parseCommandLine(['grant-shop', '-h'], COMMANDS)).toMatchObject({ help: true });
    expect(parseCommandLine(['help', 'list'], COMMANDS)).toMatchObject({
      spec: COMMANDS[2],
      help: true,
    });
  });

  it('should refuse what it does not understand, naming it', () => {
    expect(usage([])).toMatch(/Missing command/);
    expect(usage(['nope'])).toMatch(/Unknown command 'nope'/);
    expect(usage(['list', '--yes-production'])).toMatch(/Unknown option '--yes-production'/);
    expect(usage(['create-user', 'a', '--password'])).toMatch(/needs a value <password>/);
    expect(usage(['create-user', 'a', '--password', '--disabled'])).toMatch(/needs a value/);
    expect(usage(['create-user', 'a', '--password', 'x', '--password', 'y'])).toMatch(
      /given twice/,
    );
    expect(usage(['create-user', 'a', '--disabled=yes'])).toMatch(/takes no value/);
    expect(usage(['list', '--help=yes'])).toMatch(/takes no value/);
    expect(usage(['create-user', 'a', '--password', '--'])).toMatch(/needs a value/);
    expect(usage(['create-user', 'a', '--Password', 'p'])).toMatch(/Unknown option '--Password'/);
    expect(usage(['grant-shop', 'bob'])).toMatch(/Missing <shop>/);
    expect(usage(['list', 'extra'])).toMatch(/Unexpected argument 'extra'/);
    expect(usage(['create-user', ' '])).toMatch(/Empty argument/);
  });
});

describe('help texts', () => {
  it('should show a command with its arguments, options and the production switch', () => {
    const help = commandHelp(COMMANDS[1]);
    expect(help).toMatch(/^Usage: npm run backoffice -- create-user <username> \[options\]/);
    expect(help).toMatch(/--role <role> +a role \(repeatable\)/);
    expect(help).toContain('--yes-production');
    expect(commandHelp(COMMANDS[2])).not.toContain('--yes-production');
  });

  it('should list every command and the exit codes', () => {
    const help = generalHelp(COMMANDS);
    expect(help).toMatch(/grant-shop <username> <shop>\.\.\. +Grant shops\./);
    expect(help).toMatch(/Exit codes: 0 done, 1 usage/);
  });
});
