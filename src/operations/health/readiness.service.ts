import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { FeedIndexes } from '../../backoffice/feed-indexes';
import { AppConfig } from '../../config/app-config';
import { ReplicaMonitor } from '../../database/replicas/replica-monitor';
import { buildInfo } from '../build-info';
import { RedisHealthIndicator } from './redis-health.indicator';

const DATABASE_PING_TIMEOUT_MS = 2_000;

export interface HealthAnswer {
  status: 200 | 503;
  /** Terminus's result, plus what is running (issue 22, item 9). */
  body: HealthCheckResult & { version: string; revision: string };
}

/**
 * Liveness (the process answers) and readiness (the database answers a ping, Redis too when
 * REDIS_URL is set, and the instance is not shutting down), with each read replica's lag and, on
 * MySQL/MariaDB, the feed tables found at start-up without their recommended index. A failing part is named in the body:
 * {"status":"error","error":{"database":{"status":"down","message":"..."}}, ...}.
 */
@Injectable()
export class ReadinessService {
  private draining = false;

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly replicas: ReplicaMonitor,
    private readonly feedIndexes: FeedIndexes,
    private readonly config: AppConfig,
  ) {}

  /** From now on readiness is 503 (`shutdown`), so load balancers stop sending requests. */
  startDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  live(): Promise<HealthAnswer> {
    return this.run([]);
  }

  ready(): Promise<HealthAnswer> {
    const checks: HealthIndicatorFunction[] = [
      () => this.database.pingCheck('database', { timeout: DATABASE_PING_TIMEOUT_MS }),
    ];
    if (this.redis.configured) checks.push(() => this.redis.ping('redis'));
    if (this.replicas.replicas.length > 0) {
      // Details only: a replica out of service never makes the instance unready (the primary serves).
      checks.push(() => this.indicators.check('replicas').up(this.replicas.details()));
    }
    const missing = this.feedIndexes.missing;
    if (missing !== null) {
      // Details only: the feeds work without the indexes (sql/recommended-indexes.sql), slower.
      checks.push(() => this.indicators.check('feedIndexes').up({ missing }));
    }
    checks.push(() => {
      const check = this.indicators.check('shutdown');
      return this.draining ? check.down({ message: 'shutting down' }) : check.up();
    });
    return this.run(checks);
  }

  private async run(checks: HealthIndicatorFunction[]): Promise<HealthAnswer> {
    const { version, revision } = buildInfo(this.config);
    try {
      return { status: 200, body: { ...(await this.health.check(checks)), version, revision } };
    } catch (error) {
      if (error instanceof ServiceUnavailableException) {
        const result = error.getResponse() as HealthCheckResult;
        return { status: 503, body: { ...result, version, revision } };
      }
      throw error;
    }
  }
}
