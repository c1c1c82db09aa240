import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { applyBackofficeSchema } from './backoffice-schema';
import { seedDemoData } from './demo/demo-data';

/**
 * Embedded SQLite: builds the back-office tables, applies the service's migrations and fills the
 * demo data on first start. MySQL: only checks that the service's own migrations have been run
 * (`npm run migration:run`); the back-office schema is given and never touched.
 */
@Injectable()
export class DatabaseInitializer implements OnModuleInit {
  private readonly logger = new Logger('Database');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.usesEmbeddedDatabase) {
      await applyBackofficeSchema(this.db);
      await this.db.runMigrations({ transaction: 'each' });
      if (this.config.DEMO_SEED) {
        const seeded = await seedDemoData(this.db);
        if (seeded) this.logger.log(`Embedded demo database filled: ${seeded}`);
      }
      return;
    }
    if (await this.db.showMigrations()) {
      throw new Error(
        "The service's own tables are missing or out of date: run `npm run migration:run` with the same DATABASE_URL.",
      );
    }
  }
}
