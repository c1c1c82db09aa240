import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { describeEachDatabase } from '../support/describe-databases';
import { startServiceProcess } from '../support/service-process';
import type { TestDatabase } from '../support/test-database';

const ROOT = path.join(__dirname, '../..');
const MIGRATIONS_CLI = path.join(ROOT, 'tools/migrations/migrations.cli.ts');
const REGISTER = path.join(__dirname, '../support/swc-register.js');

jest.setTimeout(60_000);

interface Run {
  code: number | null;
  output: string;
}

/**
 * `npm run migration:run` (or `migration:check`) as a real process: the migrations command line
 * on ormconfig.ts (compiled by SWC, as the spawned services are), with only the environment
 * given: no signing key.
 */
function migrationRun(
  env: Record<string, string>,
  command = 'run',
  ...options: string[]
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', REGISTER, MIGRATIONS_CLI, command, ...options], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...env },
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Undoes every migration of the test database, so that the command has work to do. */
async function undoMigrations(database: TestDatabase): Promise<void> {
  const { db } = database;
  while ((await db.query('SELECT 1 FROM api_migrations LIMIT 1')).length > 0) {
    await db.undoLastMigration();
  }
  expect(await db.showMigrations()).toBe(true);
}

/** Undoes every migration; the command's environment for the database, and the migrations' names. */
async function undoneWithEnv(ctx: { kind: string; db: TestDatabase }) {
  await undoMigrations(ctx.db);
  const env: Record<string, string> =
    ctx.kind === 'mysql'
      ? { APP_ENV: 'production', DATABASE_URL: ctx.db.databaseUrl as string }
      : { APP_ENV: 'development', DATA_DIR: ctx.db.dataDir };
  return { env, names: ctx.db.db.migrations.map((migration) => migration.name as string) };
}

describeEachDatabase('Migrations from the command line', (ctx) => {
  if (ctx.kind === 'mysql') {
    it('should run the migrations with APP_ENV=production and only DATABASE_URL set (no signing key)', async () => {
      await undoMigrations(ctx.db);
      const run = await migrationRun({
        APP_ENV: 'production',
        // Migrations run as an account with DDL (here the test's administrator; in production
        // the migration account): the runtime account the app uses has none.
        DATABASE_URL: ctx.db.databaseUrl as string,
      });
      expect(run).toMatchObject({ code: 0 });
      expect(await ctx.db.db.showMigrations()).toBe(false);
    });
  }

  if (ctx.kind === 'sqlite') {
    it('should run the migrations on the embedded database in development with only DATA_DIR set', async () => {
      await undoMigrations(ctx.db);
      const run = await migrationRun({ APP_ENV: 'development', DATA_DIR: ctx.db.dataDir });
      expect(run).toMatchObject({ code: 0 });
      expect(await ctx.db.db.showMigrations()).toBe(false);
    });
  }

  it('should list what it applies, say when there is nothing to do, and let migration:check gate on pending (issue 46)', async () => {
    const { env, names } = await undoneWithEnv(ctx);
    expect(names.length).toBeGreaterThan(0);

    const pending = await migrationRun(env, 'check');
    expect(pending.code).toBe(1);
    expect(pending.output).toContain(`Migrations: ${names.length} pending`);
    for (const name of names) expect(pending.output).toContain(`  - ${name}\n`);

    const applied = await migrationRun(env);
    expect(applied.code).toBe(0);
    expect(applied.output).toContain(`Migrations: applied ${names.length}:`);
    for (const name of names) expect(applied.output).toContain(`  - ${name}\n`);

    const again = await migrationRun(env);
    expect(again).toEqual({ code: 0, output: expect.stringMatching(/nothing to do/) });
    expect(again.output).not.toMatch(/applied \d/);

    const upToDate = await migrationRun(env, 'check');
    expect(upToDate).toEqual({ code: 0, output: expect.stringMatching(/none pending/) });
  });

  it('should list what ran and what is pending with migration:show, and name what migration:revert undid (issue 56)', async () => {
    const { env, names } = await undoneWithEnv(ctx);
    const last = names[names.length - 1];

    const before = await migrationRun(env, 'show');
    expect(before.code).toBe(1);
    expect(before.output).toContain(`Migrations: 0 applied, ${names.length} pending.`);
    for (const name of names) expect(before.output).toContain(`  [pending] ${name}\n`);

    expect((await migrationRun(env)).code).toBe(0);
    const after = await migrationRun(env, 'show');
    expect(after.code).toBe(0);
    expect(after.output).toContain(`Migrations: ${names.length} applied, 0 pending.`);
    expect(after.output).toContain(names.map((name) => `  [applied] ${name}\n`).join(''));

    const confirm = ctx.kind === 'mysql' ? ['--yes-production'] : [];
    const reverted = await migrationRun(env, 'revert', ...confirm);
    expect(reverted).toEqual({ code: 0, output: expect.stringContaining(`reverted ${last}.`) });
    const shown = await migrationRun(env, 'show');
    expect(shown.code).toBe(1);
    expect(shown.output).toContain(`  [pending] ${last}\n`);
    expect(await ctx.db.db.showMigrations()).toBe(true);
  });

  if (ctx.kind === 'mysql') {
    it('should refuse to start with migrations pending, naming the migration account and its command in a JSON line (issue 56)', async () => {
      await undoMigrations(ctx.db);
      const service = startServiceProcess({
        APP_ENV: 'production',
        LOG_FORMAT: 'json',
        DATABASE_URL: ctx.db.databaseUrl,
      });
      const { code } = await service.exited;
      expect(code).toBe(1);
      const lines = service
        .output()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: string; msg: string });
      const fatal = lines[lines.length - 1];
      const { host, pathname } = new URL(ctx.db.databaseUrl as string);
      expect(fatal.level).toBe('fatal');
      expect(fatal.msg).toContain(`${ctx.db.db.migrations.length} migration(s) pending`);
      expect(fatal.msg).toContain('the migration account (created by sql/migration-account.sql)');
      expect(fatal.msg).toContain(
        `DATABASE_URL='mysql://pos_api_migrate:<password>@${host}${pathname}' npm run migration:run`,
      );
    });
  }

  it('should refuse APP_ENV=production without DATABASE_URL, asking for no signing key', async () => {
    const run = await migrationRun({ APP_ENV: 'production', DATA_DIR: ctx.db.dataDir });
    expect(run.code).toBe(2);
    expect(run.output).toContain('DATABASE_URL: required when APP_ENV=production');
    expect(run.output).not.toContain('JWT_PRIVATE_KEY');
  });
});

describe('migration:revert in production', () => {
  it('should refuse without --yes-production, as the admin command does, and touch no database (issue 56)', async () => {
    for (const env of [{ APP_ENV: 'production' }, {}] as Array<Record<string, string>>) {
      const run = await migrationRun(env, 'revert');
      expect(run.code).toBe(3);
      expect(run.output).toContain(
        'Refusing to revert a migration with APP_ENV=production: add --yes-production if you mean it',
      );
    }
  });
});
