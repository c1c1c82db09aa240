import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, MigrationExecutor } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { applyBackofficeSchema } from './backoffice-schema';
import { boundPoolWait } from './deadline/pool-wait';
import { pendingMigrationsMessage } from './pending-migrations.message';

/**
 * Embedded SQLite: builds the back-office tables and applies the service's migrations (`npm start`
 * fills the demo data before: tools/seed/start-development.ts). MySQL: only checks that the
 * service's own migrations have been run (`npm run migration:run`, as the migration account); the back-office schema is
 * given and never touched. On MySQL it also bounds the pool's waits for a connection.
 */
@Injectable()
export class DatabaseInitializer implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    // No wait for a pool connection outlasts the request's deadline (decision 27.3).
    boundPoolWait(this.db, this.config.REQUEST_DEADLINE_MS);
    if (this.config.usesEmbeddedDatabase) {
      await applyBackofficeSchema(this.db);
      await this.db.runMigrations({ transaction: 'each' });
      return;
    }
    const pending = await new MigrationExecutor(this.db).getPendingMigrations();
    if (pending.length > 0) {
      throw new Error(
        pendingMigrationsMessage(
          pending.map((migration) => migration.name),
          this.config.DATABASE_URL ?? '',
        ),
      );
    }
  }
}
