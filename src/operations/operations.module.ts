import { DynamicModule, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AuthModule } from '../auth/auth.module';
import { SyncModule } from '../sync/sync.module';
import { AppConfig } from '../config/app-config';
import { ReadinessService } from './health/readiness.service';
import { RedisHealthIndicator } from './health/redis-health.indicator';
import { loggerParams } from './logging/logger.params';
import { prettyDestination } from './logging/pretty-logs';
import { ManagementServer } from './management.server';
import { ChangeMetrics } from './metrics/change.metrics';
import { FeedMetrics } from './metrics/feed.metrics';
import { MetricsService } from './metrics/metrics.service';
import { RedisMetrics } from './metrics/redis-metrics';
import { ReplicaMetrics } from './metrics/replica-metrics';
import { RequestTracker } from './metrics/request-tracker';
import { SignInMetrics } from './metrics/sign-in.metrics';

/**
 * What an operator needs: JSON logs without secrets (nestjs-pino, app-wide), metrics of the API
 * port, and the management server (health, readiness, metrics) that main.ts starts on
 * MANAGEMENT_PORT. MetricsService is exported for other modules.
 */
@Module({})
export class OperationsModule {
  /** `logDestination`: where log lines go instead of LOG_FILE / stdout (see createApp). */
  static forRoot(logDestination?: DestinationStream): DynamicModule {
    return {
      module: OperationsModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [AppConfig],
          // A destination given by the code that builds the app (the tests' capture) stays JSON.
          useFactory: async (config: AppConfig) =>
            loggerParams(config, logDestination ?? (await prettyDestination(config))),
        }),
        TerminusModule.forRoot({ logger: false }),
        AuthModule,
        SyncModule,
      ],
      providers: [
        MetricsService,
        RequestTracker,
        ReadinessService,
        RedisHealthIndicator,
        ManagementServer,
        ReplicaMetrics,
        RedisMetrics,
        SignInMetrics,
        FeedMetrics,
        ChangeMetrics,
      ],
      exports: [MetricsService],
    };
  }
}
