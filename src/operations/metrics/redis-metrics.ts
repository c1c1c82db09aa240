import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { RedisHealthIndicator } from '../health/redis-health.indicator';
import { MetricsService } from './metrics.service';

/**
 * `pos_api_redis_up`: whether this instance reaches REDIS_URL (1) or not (0), pinged at each
 * scrape (1 s at most). Absent without REDIS_URL. Readiness no longer fails for Redis, so this is
 * what alerts on it (PosApiRedisDown, deploy/prometheus/alerts.yml).
 */
@Injectable()
export class RedisMetrics {
  constructor(metrics: MetricsService, redis: RedisHealthIndicator) {
    if (!redis.configured) return;
    const up = new Gauge({
      name: 'pos_api_redis_up',
      help: 'Whether Redis (REDIS_URL) answers a ping from this instance: 1 yes, 0 no (the report answers 503 meanwhile).',
      registers: [metrics.registry],
      async collect() {
        up.set((await redis.ping()).up ? 1 : 0);
      },
    });
  }
}
