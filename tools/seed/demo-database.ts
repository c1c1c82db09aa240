import { DataSource } from 'typeorm';
import type { AppConfig } from '../../src/config/app-config';
import { makeDataDir } from '../../src/config/data-dir';
import { applyBackofficeSchema } from '../../src/database/backoffice-schema';
import { buildDataSourceOptions } from '../../src/database/data-source.options';
import { seedDemoData } from './demo-data';

/**
 * Fills the embedded SQLite database of DATA_DIR with the demo when it has no user yet (shops,
 * six weeks of sales, the demo users), as `npm start` does before the service starts. Returns the
 * summary, or undefined when there was nothing to do (a database already filled, or MySQL).
 */
export async function fillDemoDatabase(
  config: Pick<AppConfig, 'DATA_DIR' | 'DATABASE_URL' | 'usesEmbeddedDatabase'>,
): Promise<string | undefined> {
  if (!config.usesEmbeddedDatabase) return undefined;
  makeDataDir(config.DATA_DIR);
  const db = new DataSource(
    buildDataSourceOptions({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }),
  );
  await db.initialize();
  try {
    await applyBackofficeSchema(db);
    return await seedDemoData(db);
  } finally {
    await db.destroy();
  }
}
