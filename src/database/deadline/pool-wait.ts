import type { DataSource } from 'typeorm';
import { currentDeadline, DeadlineExceededError } from '../../common/deadline/deadline';

interface PooledConnection {
  release(): void;
}
type Acquired = (error: unknown, connection?: PooledConnection) => void;
interface Pool {
  getConnection(callback: Acquired): void;
}

const BOUNDED = new WeakSet<Pool>();

/**
 * Bounds every wait for a connection of a mysql2 pool, which has no bound of its own (mysql2
 * ignores `acquireTimeout`; decision 27.3): a request's wait ends when its deadline does, any
 * other wait (a report's later chunks, background checks) after `fallbackMs`
 * (REQUEST_DEADLINE_MS). The waiter then fails with DeadlineExceededError (503), and a
 * connection the pool hands over too late goes straight back to it. Every acquisition of the pool
 * passes here: TypeORM's query runners and mysql2's own `pool.query` call `getConnection`.
 * SQLite has no pool: nothing to bound.
 */
export function boundPoolWait(dataSource: DataSource, fallbackMs: number): void {
  const pool = (dataSource.driver as unknown as { pool?: Pool }).pool;
  if (!pool || BOUNDED.has(pool)) return;
  BOUNDED.add(pool);
  const acquire = pool.getConnection.bind(pool);
  pool.getConnection = (callback: Acquired): void => {
    const deadline = currentDeadline();
    if (deadline?.expired) {
      const reason: unknown = deadline.signal.reason;
      process.nextTick(() => callback(reason));
      return;
    }
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const clock = deadline?.running ? deadline.signal : undefined;
    const giveUp = (): void => {
      if (settled) return;
      settled = true;
      callback(
        clock?.reason ??
          new DeadlineExceededError(`No database connection was free within ${fallbackMs} ms.`),
      );
    };
    if (clock) {
      clock.addEventListener('abort', giveUp, { once: true });
    } else {
      timer = setTimeout(giveUp, fallbackMs);
      timer.unref();
    }
    acquire((error, connection) => {
      clock?.removeEventListener('abort', giveUp);
      clearTimeout(timer);
      if (settled) {
        connection?.release();
        return;
      }
      settled = true;
      callback(error, connection);
    });
  };
}
