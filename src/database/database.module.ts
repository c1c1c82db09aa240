import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mkdirSync } from 'node:fs';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source.options';
import { DatabaseInitializer } from './database.initializer';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        if (config.usesEmbeddedDatabase) mkdirSync(config.DATA_DIR, { recursive: true });
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
  providers: [DatabaseInitializer],
})
export class DatabaseModule {}
