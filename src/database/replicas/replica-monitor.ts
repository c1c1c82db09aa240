import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { boundPoolWait } from '../deadline/pool-wait';
import { AppConfig } from '../../config/app-config';
import { nextHealth, readReplicaStatus, ReplicaHealth, ReplicaStatusRow } from './replica-health';
import { Replica } from './replica';

export const REPLICAS = Symbol('REPLICAS');

/** MySQL 8.0.22+ and MariaDB 10.5.1+ know the first; older servers only the second. */
const STATUS_QUERIES = ['SHOW REPLICA STATUS', 'SHOW SLAVE STATUS'];

/** Counts kept for the metrics (src/operations/metrics/replica-metrics.ts). */
export interface ReplicaCounters {
  /** Reads served, by target (primary, replica1, ...). */
  reads: Map<string, number>;
  /** Switches, by `${replica}:${to}` with to = primary (it stopped serving) or replica. */
  switches: Map<string, number>;
}

function errorCode(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return code;
  return typeof message === 'string' ? message : 'unknown error';
}

/**
 * Checks every replica each REPLICA_CHECK_INTERVAL_MS (reachable? how far behind?) and keeps
 * which of them take reads; logs and counts each switch. The first check runs before the app
 * listens, so an instance never reads from a replica it has not seen in sync.
 */
@Injectable()
export class ReplicaMonitor implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Replicas');
  private timer?: NodeJS.Timeout;
  private checking = false;
  private next = 0;
  readonly counters: ReplicaCounters = { reads: new Map(), switches: new Map() };

  constructor(
    @Inject(REPLICAS) readonly replicas: Replica[],
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.replicas.length === 0) return;
    await this.checkAll();
    this.timer = setInterval(() => void this.checkAll(), this.config.REPLICA_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    for (const replica of this.replicas) {
      if (replica.dataSource.isInitialized) await replica.dataSource.destroy();
    }
  }

  /** A replica that takes reads now (round robin), or undefined: the primary serves. */
  pick(): Replica | undefined {
    const serving = this.replicas.filter((r) => r.health.serving);
    if (serving.length === 0) return undefined;
    return serving[this.next++ % serving.length];
  }

  /** Each replica's state for readiness: {"replica1": {"address", "serving", "state", "lagSeconds"}}. */
  details(): Record<string, Record<string, unknown>> {
    return Object.fromEntries(
      this.replicas.map(({ name, address, health }) => [
        name,
        {
          address,
          serving: health.serving,
          state: health.state,
          lagSeconds: health.lagSeconds,
          ...(health.reason ? { reason: health.reason } : {}),
        },
      ]),
    );
  }

  countRead(target: string): void {
    this.counters.reads.set(target, (this.counters.reads.get(target) ?? 0) + 1);
  }

  /** A read found the replica unreachable: it stops serving now, not at the next check. */
  markDown(replica: Replica, error: unknown): void {
    const down = { kind: 'down', reason: `a read failed (${errorCode(error)})` } as const;
    this.update(replica, nextHealth(replica.health, down, Date.now(), this.maxLag));
  }

  /** One check of every replica (a check still running is not doubled). */
  async checkAll(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      await Promise.all(this.replicas.map((replica) => this.check(replica)));
    } finally {
      this.checking = false;
    }
  }

  private get maxLag(): number {
    return this.config.MAX_REPLICA_LAG_SECONDS;
  }

  private async check(replica: Replica): Promise<void> {
    let health: ReplicaHealth;
    try {
      const rows = await this.status(replica);
      health = nextHealth(replica.health, readReplicaStatus(rows), Date.now(), this.maxLag);
    } catch (error) {
      health = nextHealth(replica.health, this.down(error), Date.now(), this.maxLag);
    }
    this.update(replica, health);
  }

  private async status(replica: Replica): Promise<ReplicaStatusRow[]> {
    if (!replica.dataSource.isInitialized) {
      await replica.dataSource.initialize();
      boundPoolWait(replica.dataSource, this.config.REQUEST_DEADLINE_MS);
    }
    for (const [index, sql] of STATUS_QUERIES.entries()) {
      try {
        return await replica.dataSource.query<ReplicaStatusRow[]>(sql);
      } catch (error) {
        const parseError = errorCode(error) === 'ER_PARSE_ERROR';
        if (!parseError || index === STATUS_QUERIES.length - 1) throw error;
      }
    }
    return [];
  }

  private down(error: unknown): { kind: 'down'; reason: string } {
    const code = errorCode(error);
    if (/ACCESS_DENIED/.test(code)) {
      return {
        kind: 'down',
        reason: `${code}: the account may not read its status (grant REPLICATION CLIENT or SLAVE MONITOR)`,
      };
    }
    return { kind: 'down', reason: `unreachable (${code})` };
  }

  private update(replica: Replica, health: ReplicaHealth): void {
    const was = replica.health.serving;
    replica.health = health;
    if (was === health.serving) return;
    const to = health.serving ? 'replica' : 'primary';
    const key = `${replica.name}:${to}`;
    this.counters.switches.set(key, (this.counters.switches.get(key) ?? 0) + 1);
    const where = `${replica.name} (${replica.address})`;
    if (health.serving) {
      this.logger.log(
        `Replica ${where} takes reads: ${health.lagSeconds} s behind (limit ${this.maxLag} s)`,
      );
    } else {
      this.logger.warn(
        `Replica ${where} stopped taking reads: ${health.reason ?? health.state} (limit ${this.maxLag} s); the primary serves them`,
      );
    }
  }
}
