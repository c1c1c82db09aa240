import type { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { ReadRouter } from './read-router';
import type { Replica } from './replica';
import { ReplicaMonitor } from './replica-monitor';

function fakeSource(name: string, failWith?: { code: string }): DataSource {
  return {
    isInitialized: true,
    options: { type: 'mysql' },
    query: jest.fn(() =>
      failWith
        ? Promise.reject(Object.assign(new Error('failed'), failWith))
        : Promise.resolve([{ from: name }]),
    ),
  } as unknown as DataSource;
}

function setUp(failWith?: { code: string }) {
  const replica: Replica = {
    name: 'replica1',
    address: 'db-r1:3306',
    dataSource: fakeSource('replica1', failWith),
    health: { serving: true, state: 'replicating', lagSeconds: 0 },
  };
  const primary = fakeSource('primary');
  const config = Object.assign(new AppConfig(), { MAX_REPLICA_LAG_SECONDS: 30 });
  const monitor = new ReplicaMonitor([replica], config);
  return { replica, primary, monitor, router: new ReadRouter(primary, monitor) };
}

describe(ReadRouter.name, () => {
  /** A query runner of the primary that records what it is sent, on one connection. */
  function recordingRunner(calls: string[]) {
    return {
      query: (sql: string) => (calls.push(sql), Promise.resolve([{ id: '7' }])),
      release: () => Promise.resolve(calls.push('release')),
    };
  }

  it('should give the feeds a reader on the primary even while a replica serves', async () => {
    const { router, primary, monitor } = setUp();
    const calls: string[] = [];
    Object.assign(primary, {
      options: { type: 'better-sqlite3' },
      createQueryRunner: () => recordingRunner(calls),
    });
    const uncommitted = await router.withPrimary(async (db) => {
      expect(await db.query('SELECT 1', [])).toEqual([{ id: '7' }]);
      return db.uncommitted;
    });
    expect(monitor.counters.reads.get('primary')).toBe(1);
    expect(uncommitted).toBeNull();
    expect(calls).toEqual(['SELECT 1', 'release']);
  });

  it('should run a feed page on one connection of the primary, the re-read at READ UNCOMMITTED for that statement only', async () => {
    const { router, primary } = setUp();
    const calls: string[] = [];
    Object.assign(primary, {
      options: { type: 'mysql' },
      createQueryRunner: () => recordingRunner(calls),
    });
    const rows = await router.withPrimary(async (db) => {
      await db.query('SELECT committed', []);
      return db.uncommitted?.query('SELECT ids', []);
    });
    expect(rows).toEqual([{ id: '7' }]);
    expect(calls).toEqual([
      'SELECT committed',
      'SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED',
      'SELECT ids',
      'release',
    ]);
  });

  it('should give the connection back when the work fails', async () => {
    const { router, primary } = setUp();
    const calls: string[] = [];
    Object.assign(primary, {
      options: { type: 'mysql' },
      createQueryRunner: () => recordingRunner(calls),
    });
    await expect(router.withPrimary(() => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(calls).toEqual(['release']);
  });

  it('should read from a serving replica and count it', async () => {
    const { router, monitor } = setUp();
    expect(await router.reader().query('SELECT 1', [])).toEqual([{ from: 'replica1' }]);
    expect(monitor.counters.reads.get('replica1')).toBe(1);
  });

  it('should read from the primary when no replica serves', async () => {
    const { router, replica } = setUp();
    replica.health = { serving: false, state: 'lagging', lagSeconds: 90 };
    expect(await router.reader().query('SELECT 1', [])).toEqual([{ from: 'primary' }]);
  });

  it('should keep a reader on the primary once its replica stopped serving mid-way', async () => {
    const { router, replica } = setUp();
    const reader = router.reader();
    await reader.query('SELECT 1', []);
    replica.health = { serving: false, state: 'lagging', lagSeconds: 90 };
    await reader.query('SELECT 2', []);
    replica.health = { serving: true, state: 'replicating', lagSeconds: 0 };
    expect(await reader.query('SELECT 3', [])).toEqual([{ from: 'primary' }]);
  });

  it('should retry on the primary and take the replica out when it is unreachable', async () => {
    const { router, replica, monitor } = setUp({ code: 'ECONNREFUSED' });
    expect(await router.reader().query('SELECT 1', [])).toEqual([{ from: 'primary' }]);
    expect(replica.health).toMatchObject({ serving: false, state: 'down' });
    expect(monitor.counters.switches.get('replica1:primary')).toBe(1);
  });

  it('should retry on the primary when the replica account may not read a table', async () => {
    const { router, replica } = setUp({ code: 'ER_TABLEACCESS_DENIED_ERROR' });
    expect(await router.reader().query('SELECT 1', [])).toEqual([{ from: 'primary' }]);
    expect(replica.health).toMatchObject({
      serving: false,
      reason: expect.stringContaining('ER_TABLEACCESS_DENIED_ERROR'),
    });
  });

  it('should let a query error that is not about the replica fail as usual', async () => {
    const { router, primary } = setUp({ code: 'ER_PARSE_ERROR' });
    await expect(router.reader().query('SELEC 1', [])).rejects.toMatchObject({
      code: 'ER_PARSE_ERROR',
    });
    expect(primary.query).not.toHaveBeenCalled();
  });

  it('should let a slow query on a replica fail as usual, without retrying on the primary', async () => {
    const { router, primary, replica } = setUp({ code: 'PROTOCOL_SEQUENCE_TIMEOUT' });
    await expect(router.reader().query('SELECT 1', [])).rejects.toMatchObject({
      code: 'PROTOCOL_SEQUENCE_TIMEOUT',
    });
    expect(primary.query).not.toHaveBeenCalled();
    expect(replica.health.serving).toBe(true);
  });
});
