import 'reflect-metadata';
import { makeDataDir } from '../../src/config/data-dir';
import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '../../src/config/load-config';
import { applyBackofficeSchema } from '../../src/database/backoffice-schema';
import { buildDataSourceOptions, databaseKind } from '../../src/database/data-source.options';
import { type SeedProgress, seedBusinessData } from './business-data.writer';
import { SEED_USAGE, SeedArgsError, formatSeedSummary, parseSeedArgs } from './seed-cli-args';

const PROGRESS_EVERY_MS = 2_000;

/** `npm run seed -- --shops 5 --days 60 --sales-per-day 40`; see --help. */
async function main(argv: readonly string[]): Promise<number> {
  const command = parseSeedArgs(argv);
  if (command.help) {
    console.log(SEED_USAGE);
    return 0;
  }
  // The seed signs no token: production (also an unset APP_ENV) needs only DATABASE_URL.
  const config = loadConfig(process.env, { signsTokens: false });
  const settings = { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR };
  if (databaseKind(settings) === 'sqlite') makeDataDir(settings.dataDir);
  const dataSource = new DataSource(buildDataSourceOptions(settings));
  await dataSource.initialize();
  try {
    await applyBackofficeSchema(dataSource);
    let lastReport = Date.now();
    const summary = await seedBusinessData(dataSource, {
      ...command.options,
      onProgress: (progress: SeedProgress) => {
        if (Date.now() - lastReport < PROGRESS_EVERY_MS) return;
        lastReport = Date.now();
        console.log(formatProgress(progress));
      },
    });
    console.log(formatSeedSummary(summary));
    return 0;
  } finally {
    await dataSource.destroy();
  }
}

function formatProgress(p: SeedProgress): string {
  const percent = Math.floor((100 * p.daysDone) / p.days);
  const rate = Math.round(p.rows / Math.max(p.elapsedMs / 1000, 0.001));
  return (
    `  ${p.businessDate}  ${String(percent).padStart(3)}%  ` +
    `${p.rows.toLocaleString('en-US')} rows  (${rate.toLocaleString('en-US')} rows/s)`
  );
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof SeedArgsError) {
      console.error(`${error.message}\nRun with --help for the options.`);
    } else if (error instanceof ConfigError) {
      console.error(error.message);
    } else {
      console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    process.exitCode = 1;
  },
);
