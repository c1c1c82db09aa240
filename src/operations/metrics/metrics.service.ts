import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { buildInfo } from '../build-info';
import { poolStats } from '../../database/pool-stats';
import { EventLoopDelay } from './event-loop-delay';

/**
 * The service's Prometheus metrics, one registry per app (tests run several side by side).
 * Served on the management port at /metrics. Other modules may inject it and call its methods.
 */
@Injectable()
export class MetricsService implements OnModuleInit, OnModuleDestroy {
  readonly registry = new Registry();

  private readonly eventLoop = new EventLoopDelay(this.registry);

  private readonly requests = new Counter({
    name: 'pos_api_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  private readonly duration = new Histogram({
    name: 'pos_api_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  private readonly inFlight = new Gauge({
    name: 'pos_api_http_requests_in_flight',
    help: 'HTTP requests being served.',
    registers: [this.registry],
  });

  private readonly reportThrottles = new Counter({
    name: 'pos_api_report_throttled_total',
    help: 'TransactionDetailReport calls refused by the per-user rate limit (429).',
    registers: [this.registry],
  });

  private readonly shed = new Counter({
    name: 'pos_api_requests_shed_total',
    help: 'Requests answered 503 because they could not be served in time, by reason (deadline: REQUEST_DEADLINE_MS passed, waiting on the database).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly readiness = new Counter({
    name: 'pos_api_readiness_checks_total',
    help: 'Answers of GET /health/ready on the management port, by result (ready, not_ready).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  constructor(@InjectDataSource() dataSource: DataSource, config: AppConfig) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'pos_api_build_info',
      help: 'What is running: version (package.json), revision (BUILD_REVISION) and Node.js; always 1.',
      labelNames: ['version', 'revision', 'node'] as const,
      registers: [this.registry],
    }).set({ ...buildInfo(config) }, 1);
    const pool = new Gauge({
      name: 'pos_api_db_pool_connections',
      help: 'Database connections of this instance, by state (in_use, idle, max, waiting).',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const stats = poolStats(dataSource);
        if (!stats) return;
        pool.set({ state: 'in_use' }, stats.inUse);
        pool.set({ state: 'idle' }, stats.idle);
        pool.set({ state: 'max' }, stats.size);
        pool.set({ state: 'waiting' }, stats.waiting);
      },
    });
    for (const result of ['ready', 'not_ready']) this.readiness.inc({ result }, 0);
    this.shed.inc({ reason: 'deadline' }, 0);
  }

  onModuleInit(): void {
    this.eventLoop.start();
  }

  onModuleDestroy(): void {
    this.eventLoop.stop();
  }

  /** An answer of the readiness probe (the orchestrator's), for the readiness alert. */
  readinessAnswered(ready: boolean): void {
    this.readiness.inc({ result: ready ? 'ready' : 'not_ready' });
  }

  requestStarted(): void {
    this.inFlight.inc();
  }

  requestFinished(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.inFlight.dec();
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }

  /** A request that never got its answer (client gone): only leaves the in-flight count. */
  requestAborted(): void {
    this.inFlight.dec();
  }

  /** A request answered 503 by its deadline (decision 27.3). */
  requestShed(reason: 'deadline'): void {
    this.shed.inc({ reason });
  }

  reportThrottled(): void {
    this.reportThrottles.inc();
  }

  /** The Prometheus text exposition. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
