import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { DestinationStream } from 'pino';
import { AuthModule } from './auth/auth.module';
import { BusinessDaysModule } from './business-days/business-days.module';
import { CATALOGUE, DAY_CLOSE } from './app.catalogue';
import { RecommendedIndexesModule } from './database/recommended-indexes';
import { TOKEN_IP_THROTTLER } from './auth/guards/token-ip-throttler.guard';
import { ProblemDetailsFilter } from './common/errors/problem-details.filter';
import { ThrottlingModule } from './common/throttling/throttling.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { OperationsModule } from './operations/operations.module';
import { REPORT_THROTTLER_OPTIONS } from './reports/report-throttler.guard';
import { ReportsModule } from './reports/reports.module';
import { ResourcesModule } from './sync/resources.module';
import { ShopsModule } from './shops/shops.module';

/** What the code that builds the app may give besides the configuration. */
export interface AppOptions {
  /** Where the JSON log lines go instead of LOG_FILE / stdout (the end-to-end tests' capture). */
  logDestination?: DestinationStream;
}

@Module({})
export class AppModule {
  /** The whole service for one validated configuration (tests start several side by side). */
  static forRoot(config: AppConfig, options: AppOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        OperationsModule.forRoot(options.logDestination),
        DatabaseModule,
        ThrottlerModule.forRoot({
          throttlers: [
            { name: TOKEN_IP_THROTTLER, ttl: 60_000, limit: config.TOKEN_RATE_LIMIT_PER_MINUTE },
            // Both counted in SharedLimitStorage (Redis when REDIS_URL is set), not in this module's storage.
            REPORT_THROTTLER_OPTIONS,
          ],
          setHeaders: false,
        }),
        ThrottlingModule,
        AuthModule,
        // The indexes of sql/recommended-indexes.sql, checked at start-up (readiness details).
        RecommendedIndexesModule.forRoot(CATALOGUE),
        ShopsModule,
        ResourcesModule.forRoot(CATALOGUE),
        ReportsModule,
        BusinessDaysModule.forRoot(DAY_CLOSE),
      ],
      // Every route's deadline (REQUEST_DEADLINE_MS, decision 27.3) is two Fastify hooks
      // (enforceRequestDeadlines in app.factory.ts), not an interceptor.
      providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }],
    };
  }
}
