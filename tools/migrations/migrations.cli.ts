/**
 * `npm run migration:run` and `npm run migration:check`: the service's own migrations, saying
 * what they did (issue 46). TypeORM's command line printed nothing on success, and its
 * `migration:show` exited 0 with a migration pending, so a deploy script could not gate on it.
 */
import 'reflect-metadata';
import { MigrationExecutor, type DataSource } from 'typeorm';

/** Exit codes a deploy script can branch on. */
export const EXIT = { ok: 0, pending: 1, failed: 2 } as const;

type Command = 'run' | 'check';

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

async function main(command: string | undefined): Promise<number> {
  if (command !== 'run' && command !== 'check') {
    console.error('usage: migrations.cli.js run|check');
    return EXIT.failed;
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
  const print = (line: string) => console.log(line);
  try {
    const steps: Record<Command, typeof runMigrations> = {
      run: runMigrations,
      check: checkMigrations,
    };
    return await steps[command](dataSource, print);
  } catch (error) {
    console.error(`Migrations: ${command} failed: ${(error as Error).message}`);
    return EXIT.failed;
  } finally {
    await dataSource.destroy();
  }
}

void main(process.argv[2]).then((code) => {
  process.exitCode = code;
});
