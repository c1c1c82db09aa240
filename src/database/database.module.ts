import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { makeDataDir } from '../config/data-dir';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source.options';
import { DatabaseInitializer } from './database.initializer';
import { ReadRouter } from './replicas/read-router';
import { buildReplicas } from './replicas/replica';
import { ReplicaMonitor, REPLICAS } from './replicas/replica-monitor';

/**
 * The primary data source (TypeORM), the read replicas of DATABASE_READ_URLS with their monitor,
 * and ReadRouter, global: the data repositories read through ReadRouter, the rest uses the primary.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        if (config.usesEmbeddedDatabase) makeDataDir(config.DATA_DIR);
        return {
          ...buildDataSourceOptions({
            databaseUrl: config.DATABASE_URL,
            dataDir: config.DATA_DIR,
            connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
            queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
            poolSize: config.DATABASE_POOL_SIZE,
          }),
          retryAttempts: 3,
          retryDelay: 1000,
        };
      },
    }),
  ],
  providers: [
    DatabaseInitializer,
    { provide: REPLICAS, inject: [AppConfig], useFactory: buildReplicas },
    ReplicaMonitor,
    ReadRouter,
  ],
  exports: [ReadRouter, ReplicaMonitor],
})
export class DatabaseModule {}
