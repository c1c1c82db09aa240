import type { DataSource } from 'typeorm';
import { poolStats } from './pool-stats';

const queue = (length: number) => ({ length });

describe(poolStats.name, () => {
  it('should read in-use, idle and waiting connections of a mysql2 pool', () => {
    const db = {
      isInitialized: true,
      options: { type: 'mysql' },
      driver: {
        pool: {
          config: { connectionLimit: 10 },
          _allConnections: queue(4),
          _freeConnections: queue(1),
          _connectionQueue: queue(2),
        },
      },
    } as unknown as DataSource;
    expect(poolStats(db)).toEqual({ size: 10, inUse: 3, idle: 1, waiting: 2 });
  });

  it('should report the one SQLite connection', () => {
    const db = {
      isInitialized: true,
      options: { type: 'better-sqlite3' },
    } as unknown as DataSource;
    expect(poolStats(db)).toEqual({ size: 1, inUse: 0, idle: 1, waiting: 0 });
  });

  it('should report nothing for a closed data source or an unknown pool shape', () => {
    expect(poolStats({ isInitialized: false } as DataSource)).toBeUndefined();
    const odd = {
      isInitialized: true,
      options: { type: 'mysql' },
      driver: {},
    } as unknown as DataSource;
    expect(poolStats(odd)).toBeUndefined();
  });
});
