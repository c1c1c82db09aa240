import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { buildDataSourceOptions } from '../data-source.options';
import { INITIAL_HEALTH, ReplicaHealth } from './replica-health';

/** One read replica of DATABASE_READ_URLS: its own TypeORM data source (and pool), and its health. */
export interface Replica {
  /** replica1, replica2, ... in the order of DATABASE_READ_URLS (labels, logs, readiness). */
  name: string;
  /** host:port, never the credentials. */
  address: string;
  dataSource: DataSource;
  health: ReplicaHealth;
}

/** The replicas of the configuration, not yet connected (ReplicaMonitor connects and checks them). */
export function buildReplicas(config: AppConfig): Replica[] {
  return config.readReplicaUrls.map((url, index) => {
    const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
    return {
      name: `replica${index + 1}`,
      address: `${parsed.hostname}:${parsed.port || '3306'}`,
      dataSource: new DataSource({
        ...buildDataSourceOptions({
          databaseUrl: url,
          dataDir: config.DATA_DIR,
          connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
          queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
          poolSize: config.DATABASE_POOL_SIZE,
        }),
        migrations: [],
      }),
      health: { ...INITIAL_HEALTH },
    };
  });
}
