import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { ReplicaMonitor } from '../../database/replicas/replica-monitor';
import { poolStats } from '../../database/pool-stats';
import { MetricsService } from './metrics.service';

/**
 * The read replicas' metrics, read from ReplicaMonitor at each scrape: lag, whether each takes
 * reads, switches (to the primary and back), reads by target, and each replica's pool.
 */
@Injectable()
export class ReplicaMetrics {
  constructor(metrics: MetricsService, monitor: ReplicaMonitor) {
    const registers = [metrics.registry];
    const lag = new Gauge({
      name: 'pos_api_db_replica_lag_seconds',
      help: 'Seconds each read replica is behind the primary (estimated while replication is stopped; absent when unknown).',
      labelNames: ['replica'] as const,
      registers,
      collect() {
        lag.reset();
        for (const r of monitor.replicas) {
          if (r.health.lagSeconds !== null) lag.set({ replica: r.name }, r.health.lagSeconds);
        }
      },
    });
    const serving = new Gauge({
      name: 'pos_api_db_replica_serving',
      help: 'Whether each read replica takes reads (1) or the primary serves them in its place (0).',
      labelNames: ['replica'] as const,
      registers,
      collect() {
        for (const r of monitor.replicas)
          serving.set({ replica: r.name }, r.health.serving ? 1 : 0);
      },
    });
    const switches = new Counter({
      name: 'pos_api_db_replica_switches_total',
      help: 'Times a read replica stopped taking reads (to="primary") or took them again (to="replica").',
      labelNames: ['replica', 'to'] as const,
      registers,
      collect() {
        switches.reset();
        for (const [key, count] of monitor.counters.switches) {
          const [replica, to] = key.split(':');
          switches.inc({ replica, to }, count);
        }
      },
    });
    const reads = new Counter({
      name: 'pos_api_db_reads_total',
      help: 'Queries of the data routes, by where they ran (primary, replica1, ...).',
      labelNames: ['target'] as const,
      registers,
      collect() {
        reads.reset();
        for (const [target, count] of monitor.counters.reads) reads.inc({ target }, count);
      },
    });
    const pools = new Gauge({
      name: 'pos_api_db_replica_pool_connections',
      help: 'Connections of each read replica pool of this instance, by state (in_use, idle, max, waiting).',
      labelNames: ['replica', 'state'] as const,
      registers,
      collect() {
        for (const r of monitor.replicas) {
          const stats = poolStats(r.dataSource);
          if (!stats) continue;
          pools.set({ replica: r.name, state: 'in_use' }, stats.inUse);
          pools.set({ replica: r.name, state: 'idle' }, stats.idle);
          pools.set({ replica: r.name, state: 'max' }, stats.size);
          pools.set({ replica: r.name, state: 'waiting' }, stats.waiting);
        }
      },
    });
  }
}
