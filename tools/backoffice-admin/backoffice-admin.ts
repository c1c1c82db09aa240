import { existsSync } from 'node:fs';
import { DataSource, TypeORMError } from 'typeorm';
import { AppConfig } from '../../src/config/app-config';
import { ConfigError, loadConfig } from '../../src/config/load-config';
import { buildDataSourceOptions, sqliteFilePath } from '../../src/database/data-source.options';
import { commandHelp, generalHelp, parseCommandLine } from './admin-cli-args';
import { AdminCommand, AdminIo, COMMANDS } from './admin-commands';
import {
  AdminError,
  databaseError,
  ExitCode,
  grantMissing,
  missingGrant,
  refused,
} from './admin-errors';
import { BackofficeAdminRepository } from './backoffice-admin.repository';

/**
 * `npm run backoffice -- <command>`: parses, refuses production writes without
 * --yes-production, opens the database the service is configured with, runs the command (writes
 * in one transaction) and returns the exit code. Messages go to io.out / io.err.
 */
export async function runBackofficeAdmin(
  argv: readonly string[],
  io: AdminIo,
  given: NodeJS.ProcessEnv = process.env,
): Promise<ExitCode> {
  // Neither APP_ENV nor DATABASE_URL: the embedded demo database `npm start` made, which only
  // development runs, so development, as `npm start` sets it (issue 22).
  const embedded = !given.APP_ENV?.trim() && !given.DATABASE_URL?.trim();
  const env = embedded ? { ...given, APP_ENV: 'development' } : given;
  try {
    const parsed = parseCommandLine(argv, COMMANDS);
    if (parsed === 'general-help') {
      io.out(generalHelp(COMMANDS));
      return ExitCode.ok;
    }
    if (parsed.help) {
      io.out(commandHelp(parsed.spec));
      return ExitCode.ok;
    }
    const command = parsed.spec as AdminCommand;
    // Otherwise an unset APP_ENV is production, as for the service (src/config/app-config.ts).
    const production = (env.APP_ENV?.trim() || 'production') === 'production';
    if (command.writes && production && !parsed.yesProduction) {
      throw refused(
        `Refusing to ${command.name} with APP_ENV=production: add --yes-production if you mean it.`,
      );
    }
    // The admin command signs nothing: production needs no signing key for it.
    const config = loadConfig(env, { signsTokens: false });
    const { args, options } = parsed;
    const prepared = await command.prepare?.({ args, options, io });
    const db = await openDatabase(config);
    try {
      const run = (repo: BackofficeAdminRepository) =>
        command.run({ repo, args, options, io, prepared });
      if (command.writes) {
        await db.transaction((manager) => run(new BackofficeAdminRepository(manager)));
      } else {
        await run(new BackofficeAdminRepository(db));
      }
    } finally {
      await db.destroy();
    }
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io);
  }
}

async function openDatabase(config: AppConfig): Promise<DataSource> {
  const settings = {
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  };
  const where = config.DATABASE_URL
    ? 'the database of DATABASE_URL'
    : `the embedded database ${sqliteFilePath(config.DATA_DIR)}`;
  if (!config.DATABASE_URL && !existsSync(sqliteFilePath(config.DATA_DIR))) {
    throw databaseError(
      `There is no embedded database at ${sqliteFilePath(config.DATA_DIR)}: start the service once to create it, or set DATABASE_URL.`,
    );
  }
  const db = new DataSource(buildDataSourceOptions(settings));
  try {
    await db.initialize();
  } catch (error) {
    throw databaseError(`Cannot open ${where}: ${messageOf(error)}`);
  }
  const notMigrated = `The service's own tables are missing or out of date in ${where}: run \`npm run migration:run\`.`;
  try {
    await readable(
      db,
      'bo_users',
      `The back-office tables (bo_users, ...) are missing in ${where}.`,
    );
    await readable(db, 'api_migrations', notMigrated);
    if (await db.showMigrations()) throw databaseError(notMigrated);
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/**
 * Reads nothing from `table`, to learn that the account may read it: a query, not
 * information_schema, which hides the tables an account has no grant on (an account without
 * them would be told they are missing, and TypeORM would try to create api_migrations).
 */
async function readable(db: DataSource, table: string, missing: string): Promise<void> {
  await db.query(`SELECT 1 FROM ${table} WHERE 1 = 0`).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    if (code === 'ER_NO_SUCH_TABLE' || /no such table/.test(messageOf(error))) {
      throw databaseError(missing);
    }
    throw error;
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function reportError(error: unknown, io: AdminIo): ExitCode {
  if (error instanceof AdminError) {
    io.err(error.exitCode === ExitCode.usage ? `${error.message}\nSee --help.` : error.message);
    return error.exitCode;
  }
  if (error instanceof ConfigError) {
    io.err(error.message);
    return ExitCode.database;
  }
  const grant = missingGrant(error);
  if (grant) {
    io.err(grantMissing(grant).message);
    return ExitCode.database;
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof TypeORMError || typeof code === 'string') {
    io.err(`Database error: ${messageOf(error)}`);
    return ExitCode.database;
  }
  io.err(`Unexpected error: ${messageOf(error)}`);
  return ExitCode.unexpected;
}
