import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { TokenRevocations } from '../../auth/token-revocations';
import { RecommendedIndexes } from '../../database/recommended-indexes';
import { AppConfig } from '../../config/app-config';
import { ReplicaMonitor } from '../../database/replicas/replica-monitor';
import { ChangeSource } from '../../sync/changes/change-source';
import { buildInfo } from '../build-info';
import { RedisHealthIndicator, RedisReachability } from './redis-health.indicator';

const DATABASE_PING_TIMEOUT_MS = 2_000;

/** What a Redis outage costs, in readiness's `redis` entry. */
const REDIS_DOWN_EFFECT =
  'TransactionDetailReport and the digests answer 503 until Redis answers (their limits cannot be enforced); the token route counts its per-address limit per instance; every other route serves';

export interface HealthAnswer {
  status: 200 | 503;
  /** Terminus's result, plus what is running (issue 22, item 9). */
  body: HealthCheckResult & { version: string; revision: string };
}

/**
 * Liveness (the process answers) and readiness (the database answers a ping, the token
 * revocations are current and the instance is not shutting down), with each read replica's lag and, on MySQL/MariaDB, the feed tables found
 * at start-up without their recommended index, and the binary log follower's state (issue 57). A failing part is named in the body:
 * {"status":"error","error":{"database":{"status":"down","message":"..."}}, ...}.
 *
 * Redis (REDIS_URL) is named but never fails readiness: only the report needs it (it answers 503
 * while its limit cannot be enforced), and a Redis outage must not make a load balancer pull
 * every instance, tokens and data routes included (issue 27). Its entry is in `details`, `up`
 * (also in `info`) or `down` with `degraded` saying what is affected; `pos_api_redis_up` says
 * the same to Prometheus.
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
    private readonly recommendedIndexes: RecommendedIndexes,
    private readonly revocations: TokenRevocations,
    private readonly config: AppConfig,
    private readonly changes: ChangeSource,
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
    // Started with the other checks, added to the answer after them: never a failing part.
    const redis = this.redis.configured ? this.redis.ping() : undefined;
    if (this.replicas.replicas.length > 0) {
      // Details only: a replica out of service never makes the instance unready (the primary serves).
      checks.push(() => this.indicators.check('replicas').up(this.replicas.details()));
    }
    const missing = this.recommendedIndexes.missing;
    if (missing !== null) {
      // Details only: the reads work without the indexes (sql/recommended-indexes.sql), slower.
      checks.push(() => this.indicators.check('recommendedIndexes').up({ missing }));
    }
    const binlog = this.changes.status();
    if (binlog.state !== 'off') {
      // Details only: without the log, digests are checked by fingerprints (slower, as right).
      checks.push(() => this.indicators.check('binlog').up({ ...binlog }));
    }
    checks.push(() => {
      // Fails closed: authenticated routes answer 503 meanwhile (TokenRevocations).
      const check = this.indicators.check('revocations');
      const stale = this.revocations.staleness();
      return stale === null ? check.up() : check.down({ message: stale });
    });
    checks.push(() => {
      const check = this.indicators.check('shutdown');
      return this.draining ? check.down({ message: 'shutting down' }) : check.up();
    });
    return this.run(checks).then(async (answer) =>
      redis ? withRedis(answer, await redis) : answer,
    );
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

/** The answer with Redis's entry: in `details` always, in `info` when up; the status unchanged. */
function withRedis(answer: HealthAnswer, redis: RedisReachability): HealthAnswer {
  const entry = redis.up
    ? { status: 'up' as const }
    : { status: 'down' as const, degraded: REDIS_DOWN_EFFECT, message: redis.message };
  const body = { ...answer.body, details: { ...answer.body.details, redis: entry } };
  if (redis.up) body.info = { ...answer.body.info, redis: entry };
  return { status: answer.status, body };
}
