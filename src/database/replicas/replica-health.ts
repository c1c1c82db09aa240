/** One row of SHOW REPLICA STATUS / SHOW SLAVE STATUS (MySQL and MariaDB spell columns both ways). */
export type ReplicaStatusRow = Record<string, unknown>;

/** What one status check found. */
export type ReplicaReading =
  { kind: 'replicating'; lagSeconds: number } | { kind: 'stopped' } | { kind: 'not-a-replica' };

type ReplicaState = 'unknown' | 'replicating' | 'lagging' | 'stopped' | 'down' | 'not-a-replica';

/** Where a replica stands after its last check. */
export interface ReplicaHealth {
  /** Takes reads now. */
  serving: boolean;
  state: ReplicaState;
  /** Seconds behind the primary, measured or estimated; null when unknown. */
  lagSeconds: number | null;
  /** The last lag measured while replicating, and when (estimates start from it). */
  lastMeasured?: { lagSeconds: number; atMs: number };
  /** Why it does not serve, for readiness and the log (never a credential). */
  reason?: string;
}

export const INITIAL_HEALTH: ReplicaHealth = {
  serving: false,
  state: 'unknown',
  lagSeconds: null,
  reason: 'not checked yet',
};

function column(row: ReplicaStatusRow, ...names: string[]): unknown {
  for (const name of names) if (row[name] !== undefined) return row[name];
  return undefined;
}

const isYes = (value: unknown): boolean => String(value).toLowerCase() === 'yes';

/**
 * Reads the status rows (one per replication channel). Seconds_Behind_Master is NULL while the
 * SQL or I/O thread is stopped: the lag is then unknown here, and estimated by nextHealth.
 */
export function readReplicaStatus(rows: ReplicaStatusRow[]): ReplicaReading {
  if (rows.length === 0) return { kind: 'not-a-replica' };
  let worst = 0;
  for (const row of rows) {
    const io = column(row, 'Replica_IO_Running', 'Slave_IO_Running');
    const sql = column(row, 'Replica_SQL_Running', 'Slave_SQL_Running');
    const behind = column(row, 'Seconds_Behind_Source', 'Seconds_Behind_Master');
    if (!isYes(io) || !isYes(sql) || behind === null || behind === undefined) {
      return { kind: 'stopped' };
    }
    const seconds = Number(behind);
    if (!Number.isFinite(seconds)) return { kind: 'stopped' };
    worst = Math.max(worst, seconds);
  }
  return { kind: 'replicating', lagSeconds: worst };
}

/**
 * The replica's health after a check (`reading`), or after it could not be reached (`down`).
 * A replica serves while its lag is at most `maxLagSeconds`. While replication is stopped the
 * lag is estimated as the last measured lag plus the time since: it grows one second a second
 * (an upper bound when the primary is idle), so a paused replica serves until that estimate
 * passes the limit, then stops; one never measured does not serve.
 */
export function nextHealth(
  previous: ReplicaHealth,
  reading: ReplicaReading | { kind: 'down'; reason: string },
  nowMs: number,
  maxLagSeconds: number,
): ReplicaHealth {
  const lastMeasured = previous.lastMeasured;
  switch (reading.kind) {
    case 'replicating': {
      const serving = reading.lagSeconds <= maxLagSeconds;
      return {
        serving,
        state: serving ? 'replicating' : 'lagging',
        lagSeconds: reading.lagSeconds,
        lastMeasured: { lagSeconds: reading.lagSeconds, atMs: nowMs },
        ...(serving ? {} : { reason: `${reading.lagSeconds} s behind` }),
      };
    }
    case 'stopped': {
      if (!lastMeasured) {
        return {
          serving: false,
          state: 'stopped',
          lagSeconds: null,
          reason: 'replication stopped',
        };
      }
      const estimate = Math.floor(lastMeasured.lagSeconds + (nowMs - lastMeasured.atMs) / 1000);
      const serving = estimate <= maxLagSeconds;
      return {
        serving,
        state: 'stopped',
        lagSeconds: estimate,
        lastMeasured,
        ...(serving ? {} : { reason: `replication stopped, at least ${estimate} s behind` }),
      };
    }
    case 'not-a-replica':
      return {
        serving: false,
        state: 'not-a-replica',
        lagSeconds: null,
        reason: 'not replicating from any primary (empty replica status)',
      };
    case 'down':
      return {
        serving: false,
        state: 'down',
        lagSeconds: null,
        ...(lastMeasured ? { lastMeasured } : {}),
        reason: reading.reason,
      };
  }
}
