import { DataSource } from 'typeorm';
import { applyBackofficeSchema } from '../../../src/database/backoffice-schema';
import { buildDataSourceOptions } from '../../../src/database/data-source.options';
import { grantAppDatabaseAccount } from '../../support/app-database-account';
import {
  ADMIN_PASSWORD,
  type BinlogServer,
  startBinlogServer,
} from '../../operations/support/mariadb-replication';

/** A spec's own primary with its binary log on, ready for the service and its change source. */
export interface BinlogDatabase {
  binlog: BinlogServer;
  /** The administrator's connection: the back office's edits behind the service's back. */
  primary: DataSource;
  /** BINLOG_DATABASE_URL: the account of sql/binlog-account.sql. */
  account: string;
}

/**
 * A mariadbd of the spec's own writing its binary log (startBinlogServer), `database` with the
 * back office's schema and the service's migrations (its watermarks' table), and the account of
 * sql/binlog-account.sql, as documented: its grants are proven to suffice.
 */
export async function startBinlogDatabase(
  database: string,
  dataDir: string,
): Promise<BinlogDatabase> {
  const binlog = await startBinlogServer(database);
  const primary = new DataSource(buildDataSourceOptions({ databaseUrl: binlog.adminUrl, dataDir }));
  await primary.initialize();
  await applyBackofficeSchema(primary);
  await primary.runMigrations();
  return { binlog, primary, account: await binlogAccount(binlog, database) };
}

/**
 * The account of sql/binlog-account.sql on `binlog`'s `database`, as documented (its grants are
 * proven to suffice): the URL of BINLOG_DATABASE_URL.
 */
export function binlogAccount(binlog: BinlogServer, database: string): Promise<string> {
  const server = new URL(binlog.adminUrl);
  server.pathname = '/';
  const account = { user: 'pos_api_binlog', password: ADMIN_PASSWORD };
  return grantAppDatabaseAccount(server, database, account, 'binlog');
}
