import { INITIAL_HEALTH, nextHealth, readReplicaStatus, ReplicaHealth } from './replica-health';

const running = (behind: unknown) => ({
  Slave_IO_Running: 'Yes',
  Slave_SQL_Running: 'Yes',
  Seconds_Behind_Master: behind,
});

describe('replica health', () => {
  describe(readReplicaStatus.name, () => {
    it('should read the lag of MariaDB and MySQL 8 spellings, the worst channel winning', () => {
      expect(readReplicaStatus([running(3)])).toEqual({ kind: 'replicating', lagSeconds: 3 });
      expect(
        readReplicaStatus([
          running('1'),
          { Replica_IO_Running: 'Yes', Replica_SQL_Running: 'Yes', Seconds_Behind_Source: 7 },
        ]),
      ).toEqual({ kind: 'replicating', lagSeconds: 7 });
    });

    it('should see a stopped thread or a NULL lag as stopped replication', () => {
      expect(readReplicaStatus([running(null)])).toEqual({ kind: 'stopped' });
      expect(readReplicaStatus([{ ...running(0), Slave_SQL_Running: 'No' }])).toEqual({
        kind: 'stopped',
      });
    });

    it('should see a server without replica status as not a replica', () => {
      expect(readReplicaStatus([])).toEqual({ kind: 'not-a-replica' });
    });
  });

  describe(nextHealth.name, () => {
    const LIMIT = 30;
    const measured = (lag: number, atMs: number): ReplicaHealth =>
      nextHealth(INITIAL_HEALTH, { kind: 'replicating', lagSeconds: lag }, atMs, LIMIT);

    it('should serve at the limit and stop serving past it', () => {
      expect(measured(30, 0)).toMatchObject({ serving: true, state: 'replicating' });
      expect(measured(31, 0)).toMatchObject({ serving: false, state: 'lagging', lagSeconds: 31 });
    });

    it('should estimate the lag of a paused replica from its last measure and stop past the limit', () => {
      const paused = { kind: 'stopped' } as const;
      expect(nextHealth(measured(5, 0), paused, 20_000, LIMIT)).toMatchObject({
        serving: true,
        lagSeconds: 25,
      });
      expect(nextHealth(measured(5, 0), paused, 26_000, LIMIT)).toMatchObject({
        serving: false,
        state: 'stopped',
        lagSeconds: 31,
      });
    });

    it('should not serve a replica never seen replicating, nor one that is down', () => {
      expect(nextHealth(INITIAL_HEALTH, { kind: 'stopped' }, 0, LIMIT).serving).toBe(false);
      expect(
        nextHealth(measured(0, 0), { kind: 'down', reason: 'unreachable' }, 1, LIMIT),
      ).toMatchObject({ serving: false, state: 'down', lagSeconds: null });
      expect(nextHealth(INITIAL_HEALTH, { kind: 'not-a-replica' }, 0, LIMIT).serving).toBe(false);
    });

    it('should serve again once a lagging replica is back within the limit', () => {
      const lagging = measured(90, 0);
      expect(
        nextHealth(lagging, { kind: 'replicating', lagSeconds: 2 }, 5_000, LIMIT),
      ).toMatchObject({ serving: true, state: 'replicating', lagSeconds: 2 });
    });
  });
});
