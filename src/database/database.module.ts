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
          ...buildDataSourceOptions({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }),
          retryAttempts: 3,
          retryDelay: 1000,
        };
      },
    }),
  ],
  providers: [DatabaseInitializer],
})
export class DatabaseModule {}
