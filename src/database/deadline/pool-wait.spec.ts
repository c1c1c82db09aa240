import type { DataSource } from 'typeorm';
import { Deadline, DeadlineExceededError, runWithDeadline } from '../../common/deadline/deadline';
import { boundPoolWait } from './pool-wait';

type Acquired = (error: Error | null, connection?: { release(): void }) => void;

/** A pool of one connection that the test hands over when it likes. */
function fakePool() {
  const waiting: Acquired[] = [];
  const pool = { getConnection: (callback: Acquired) => void waiting.push(callback) };
  const dataSource = { driver: { pool } } as unknown as DataSource;
  const connection = { release: jest.fn() };
  return {
    dataSource,
    connection,
    acquire: (): Promise<unknown> =>
      new Promise((resolve, reject) =>
        pool.getConnection((error, c) => (error ? reject(error) : resolve(c))),
      ),
    handOver: () => waiting.shift()?.(null, connection),
  };
}

describe(boundPoolWait.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should end a request wait for a connection at its deadline, and give a connection that comes too late back', async () => {
    const pool = fakePool();
    boundPoolWait(pool.dataSource, 60_000);
    const deadline = new Deadline(1_000);
    const wait = runWithDeadline(deadline, () => pool.acquire());
    jest.advanceTimersByTime(1_000);
    await expect(wait).rejects.toBeInstanceOf(DeadlineExceededError);
    pool.handOver();
    expect(pool.connection.release).toHaveBeenCalledTimes(1);
  });

  it('should hand over a connection that comes in time', async () => {
    const pool = fakePool();
    boundPoolWait(pool.dataSource, 60_000);
    const deadline = new Deadline(1_000);
    const wait = runWithDeadline(deadline, () => pool.acquire());
    jest.advanceTimersByTime(999);
    pool.handOver();
    await expect(wait).resolves.toBe(pool.connection);
    expect(pool.connection.release).not.toHaveBeenCalled();
    deadline.finish();
  });

  it('should refuse at once a wait whose deadline has passed', async () => {
    const pool = fakePool();
    boundPoolWait(pool.dataSource, 60_000);
    const deadline = new Deadline(10);
    jest.advanceTimersByTime(10);
    const wait = runWithDeadline(deadline, () => pool.acquire());
    jest.runAllTicks();
    await expect(wait).rejects.toBeInstanceOf(DeadlineExceededError);
  });

  it('should bound a wait without a running deadline (background work) by the fallback', async () => {
    const pool = fakePool();
    boundPoolWait(pool.dataSource, 2_000);
    const wait = pool.acquire();
    jest.advanceTimersByTime(2_000);
    await expect(wait).rejects.toThrow('No database connection was free within 2000 ms.');
  });

  it('should leave a data source without a pool (SQLite) alone', () => {
    const sqlite = { driver: {} } as unknown as DataSource;
    expect(() => boundPoolWait(sqlite, 1_000)).not.toThrow();
  });
});
