import type { DataSource } from 'typeorm';

/** Connections of one instance's database pool. */
export interface PoolStats {
  size: number;
  inUse: number;
  idle: number;
  /** Requests waiting for a free connection. */
  waiting: number;
}

interface Mysql2Queue {
  length: number;
}

interface Mysql2Pool {
  config?: { connectionLimit?: number };
  _allConnections?: Mysql2Queue;
  _freeConnections?: Mysql2Queue;
  _connectionQueue?: Mysql2Queue;
}

/**
 * Reads the pool's state. mysql2 exposes no public API for it, so this reads the pool's own
 * queues defensively; SQLite has one connection, always open.
 */
export function poolStats(dataSource: DataSource): PoolStats | undefined {
  if (!dataSource.isInitialized) return undefined;
  if (dataSource.options.type !== 'mysql') return { size: 1, inUse: 0, idle: 1, waiting: 0 };
  const pool = (dataSource.driver as unknown as { pool?: Mysql2Pool }).pool;
  if (!pool?._allConnections || !pool._freeConnections) return undefined;
  const open = pool._allConnections.length;
  const idle = pool._freeConnections.length;
  return {
    size: pool.config?.connectionLimit ?? open,
    inUse: Math.max(0, open - idle),
    idle,
    waiting: pool._connectionQueue?.length ?? 0,
  };
}
