/**
 * The TypeORM data source for the command line (npm run migration:run / :revert / :show), built
 * from the same validated environment as the service (DATABASE_URL, DATA_DIR). Migrations sign
 * no token, so production needs no signing key here: DATABASE_URL is enough.
 * It carries only the service's own migrations: the back-office tables are never touched.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/load-config';
import { buildDataSourceOptions } from './src/database/data-source.options';

const config = loadConfig(process.env, { signsTokens: false });

export default new DataSource(
  buildDataSourceOptions({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }),
);
