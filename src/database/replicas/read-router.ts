import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { currentDeadline } from '../../common/deadline/deadline';
import { isDatabaseUnavailable } from '../../common/errors/database-errors';
import type { Row, SqlDialect, SqlReader } from '../sql-reader';
import { inRead } from '../../common/tracing/spans';
import { Replica } from './replica';
import { ReplicaMonitor } from './replica-monitor';

/**
 * A data route's read, traced with the pool it runs on (`primary`, `replica1`, ...): on
 * MySQL/MariaDB the driver's span carries it, on SQLite a `db.read` span (spans.ts, inRead).
 */
function tracedRead(pool: string, source: DataSource, read: () => Promise<Row[]>): Promise<Row[]> {
  return inRead(pool, source.options.type === 'mysql', read);
}

/** Slow queries are not outages: they fail as usual (503) instead of moving to the primary. */
const SLOW_QUERY_CODES = new Set([
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_QUERY_TIMEOUT',
  'ER_LOCK_WAIT_TIMEOUT',
]);

/** A replica that refuses the account or lacks the tables is misconfigured: out, like a down one. */
const UNUSABLE_REPLICA_CODES = new Set([
  'ER_ACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_TABLEACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'ER_NO_SUCH_TABLE',
]);

function isReplicaOutage(error: unknown): boolean {
  const codes = [error, (error as { driverError?: unknown }).driverError].map((e) =>
    String((e as { code?: unknown } | undefined)?.code),
  );
  if (codes.some((c) => UNUSABLE_REPLICA_CODES.has(c))) return true;
  return isDatabaseUnavailable(error) && !codes.some((c) => SLOW_QUERY_CODES.has(c));
}

/**
 * The reads of one unit of work (a page with its lines, a report chunk), pinned to one replica
 * so they see one state of the data. When that replica stops serving (too far behind, or a read
 * finds it unreachable) the rest goes to the primary, which is never behind it; it never goes
 * back to a replica.
 */
class RoutedReader implements SqlReader {
  /** The primary's engine: its replicas run the same. */
  readonly dialect: SqlDialect;

  constructor(
    private readonly primary: DataSource,
    private readonly monitor: ReplicaMonitor,
    private replica: Replica | undefined,
  ) {
    this.dialect = primary.options.type === 'mysql' ? 'mysql' : 'sqlite';
  }

  async query(sql: string, params: unknown[]): Promise<Row[]> {
    const replica = this.replica;
    if (replica?.health.serving) {
      try {
        const rows = await tracedRead(replica.name, replica.dataSource, () =>
          replica.dataSource.query<Row[]>(sql, params),
        );
        this.monitor.countRead(replica.name);
        return rows;
      } catch (error) {
        // A read cut by its request's deadline says nothing of the replica (decision 27.3).
        if (!isReplicaOutage(error) || currentDeadline()?.expired) throw error;
        this.monitor.markDown(replica, error);
      }
    }
    this.replica = undefined;
    const rows = await tracedRead('primary', this.primary, () =>
      this.primary.query<Row[]>(sql, params),
    );
    this.monitor.countRead('primary');
    return rows;
  }
}

/**
 * The reads of the arrival feeds: the primary only, never a replica (a replica's lag would hide
 * rows the primary has committed, and the feed's guarantee rests on what the primary shows).
 */
export interface PrimaryReader extends SqlReader {
  /**
   * The same SQL, run on the primary under READ UNCOMMITTED, on the same connection as `query`:
   * what is inserted but not yet committed shows too (docs/sync.md). Null on SQLite: its single
   * writer never leaves an uncommitted row below a committed id, so there is nothing in flight
   * to look for.
   */
  readonly uncommitted: SqlReader | null;
}

/**
 * The one place that decides where the data routes' reads go (sales, payments, cash movements,
 * the report, /shops): a replica of DATABASE_READ_URLS that ReplicaMonitor sees within
 * MAX_REPLICA_LAG_SECONDS, else the primary. The arrival feeds read the primary only
 * (`withPrimary`). Sign-in, the api_ tables and migrations do not come
 * here: they use the primary DataSource directly.
 */
@Injectable()
export class ReadRouter {
  constructor(
    @InjectDataSource() private readonly primary: DataSource,
    private readonly monitor: ReplicaMonitor,
  ) {}

  /** A reader for one unit of work; take a new one for the next. */
  reader(): SqlReader {
    return new RoutedReader(this.primary, this.monitor, this.monitor.pick());
  }

  /**
   * Runs `work` with a reader on one connection of the primary, whatever the replicas: a feed
   * page's committed read, its READ UNCOMMITTED re-read and its lines go over that connection one
   * after the other, without taking a second one. The re-read is `SET TRANSACTION ISOLATION
   * LEVEL READ UNCOMMITTED` (the next transaction only) then the statement, which autocommit runs
   * as that transaction: two round trips, and the connection goes back to the pool with its
   * session default. The connection is released when `work` ends, however it ends.
   */
  async withPrimary<T>(work: (db: PrimaryReader) => Promise<T>): Promise<T> {
    const runner = this.primary.createQueryRunner('master');
    const monitor = this.monitor;
    const primary = this.primary;
    try {
      return await work({
        async query(sql, params) {
          const rows = await tracedRead(
            'primary',
            primary,
            () => runner.query(sql, params) as Promise<Row[]>,
          );
          monitor.countRead('primary');
          return rows;
        },
        uncommitted:
          this.primary.options.type === 'mysql'
            ? {
                async query(sql, params) {
                  await runner.query('SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED');
                  return (await runner.query(sql, params)) as Row[];
                },
              }
            : null,
      });
    } finally {
      await runner.release();
    }
  }
}
