/**
 * `npm run migration:run`, `:check`, `:show` and `:revert`: the service's own migrations, saying
 * what they did (issues 46 and 56). TypeORM's command line printed nothing on success, and its
 * `migration:show` exited 0 with a migration pending, so a deploy script could not gate on it.
 */
import 'reflect-metadata';
import { MigrationExecutor, type DataSource } from 'typeorm';

/** Exit codes a deploy script can branch on (3 as the admin command's refusal). */
export const EXIT = { ok: 0, pending: 1, failed: 2, refused: 3 } as const;

const COMMANDS = ['run', 'check', 'show', 'revert'] as const;
type Command = (typeof COMMANDS)[number];
type Step = (dataSource: DataSource, print: (line: string) => void) => Promise<number>;

/** Applies what is pending and lists it, or says there was nothing to do. */
export async function runMigrations(
  dataSource: DataSource,
  print: (line: string) => void,
): Promise<number> {
  const applied = await dataSource.runMigrations();
  if (applied.length === 0) {
    print('Migrations: nothing to do, every migration is already applied.');
  } else {
    print(`Migrations: applied ${applied.length}:`);
    for (const migration of applied) print(`  - ${migration.name}`);
  }
  return EXIT.ok;
}

/** Lists what is pending and exits 1 while anything is; 0 when the schema is up to date. */
export async function checkMigrations(
  dataSource: DataSource,
  print: (line: string) => void,
): Promise<number> {
  const pending = await new MigrationExecutor(dataSource).getPendingMigrations();
  if (pending.length === 0) {
    print('Migrations: none pending, the schema is up to date.');
    return EXIT.ok;
  }
  print(`Migrations: ${pending.length} pending (run npm run migration:run):`);
  for (const migration of pending) print(`  - ${migration.name}`);
  return EXIT.pending;
}

/** Lists what ran, in the order it ran, and what is pending; exits 1 while anything is, as check does. */
export async function showMigrations(
  dataSource: DataSource,
  print: (line: string) => void,
): Promise<number> {
  const executor = new MigrationExecutor(dataSource);
  const executed = await executor.getExecutedMigrations();
  const pending = await executor.getPendingMigrations();
  print(`Migrations: ${executed.length} applied, ${pending.length} pending.`);
  // TypeORM lists the executed ones newest first.
  for (const migration of [...executed].reverse()) print(`  [applied] ${migration.name}`);
  for (const migration of pending) print(`  [pending] ${migration.name}`);
  if (pending.length > 0) print('Run npm run migration:run to apply what is pending.');
  return pending.length > 0 ? EXIT.pending : EXIT.ok;
}

/** Undoes the last applied migration and names it, or says there was none. */
export async function revertMigration(
  dataSource: DataSource,
  print: (line: string) => void,
): Promise<number> {
  const executed = await new MigrationExecutor(dataSource).getExecutedMigrations();
  // TypeORM lists the executed ones newest first: the one undoLastMigration undoes.
  const last = executed[0];
  if (!last) {
    print('Migrations: nothing to revert, no migration is applied.');
    return EXIT.ok;
  }
  await dataSource.undoLastMigration({ transaction: 'each' });
  print(`Migrations: reverted ${last.name}.`);
  print('Run npm run migration:run to apply it again.');
  return EXIT.ok;
}

const STEPS: Record<Command, Step> = {
  run: runMigrations,
  check: checkMigrations,
  show: showMigrations,
  revert: revertMigration,
};

const USAGE = [
  'usage: npm run migration:<run|check|show|revert> [-- --yes-production]',
  '  run      apply every pending migration',
  '  check    list what is pending; exit 1 while anything is',
  '  show     list what ran and what is pending',
  '  revert   undo the last applied migration (refused with APP_ENV=production unless --yes-production)',
].join('\n');

async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const [command, ...options] = argv;
  if (!COMMANDS.includes(command as Command) || options.some((o) => o !== '--yes-production')) {
    console.error(USAGE);
    return EXIT.failed;
  }
  // An unset APP_ENV is production, as for the service (src/config/app-config.ts).
  const production = (env.APP_ENV?.trim() || 'production') === 'production';
  if (command === 'revert' && production && !options.includes('--yes-production')) {
    console.error(
      'Refusing to revert a migration with APP_ENV=production: add --yes-production if you mean it ' +
        '(npm run migration:revert -- --yes-production).',
    );
    return EXIT.refused;
  }
  let dataSource: DataSource;
  try {
    // Loaded here, not imported: the configuration is validated on load, and its error is a message.
    dataSource = (await import('../../ormconfig')).default;
    await dataSource.initialize();
  } catch (error) {
    console.error(`Migrations: cannot start: ${(error as Error).message}`);
    return EXIT.failed;
  }
  try {
    return await STEPS[command as Command](dataSource, (line) => console.log(line));
  } catch (error) {
    console.error(`Migrations: ${command} failed: ${(error as Error).message}`);
    return EXIT.failed;
  } finally {
    await dataSource.destroy();
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
