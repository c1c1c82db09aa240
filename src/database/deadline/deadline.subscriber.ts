import {
  type AfterQueryEvent,
  type BeforeQueryEvent,
  type DataSource,
  type EntitySubscriberInterface,
  EventSubscriber,
  type QueryRunner,
} from 'typeorm';
import { currentDeadline } from '../../common/deadline/deadline';
import { currentMeter, type ReadMeter } from '../../common/deadline/read-meter';
import { QueryCanceller } from './query-canceller';

/** A mysql2 connection of the pool, as a query runner holds it (better-sqlite3's has no thread). */
interface PoolConnection {
  threadId?: unknown;
  destroy?(): void;
}

/** Statements that undo work run even past the deadline: a transaction is never left open. */
const UNDOING = /^\s*ROLLBACK\b/i;

const CANCELLERS = new WeakMap<DataSource, QueryCanceller>();
const WATCHED = new WeakMap<QueryRunner, () => void>();
const CANCELLED = new WeakSet<PoolConnection>();
/** The read meter of the request whose statement a runner runs (its result has no context). */
const METERED = new WeakMap<QueryRunner, ReadMeter>();

function connectionOf(runner: QueryRunner | undefined): PoolConnection | undefined {
  return (runner as unknown as { databaseConnection?: PoolConnection } | undefined)
    ?.databaseConnection;
}

function cancellerOf(dataSource: DataSource): QueryCanceller | undefined {
  const options = dataSource.options as { type: string; url?: string; connectTimeout?: number };
  if (options.type !== 'mysql' || !options.url) return undefined;
  let canceller = CANCELLERS.get(dataSource);
  if (!canceller) {
    canceller = new QueryCanceller(options.url, options.connectTimeout ?? 5000);
    CANCELLERS.set(dataSource, canceller);
  }
  return canceller;
}

/**
 * The request's deadline at each statement (decision 27.3), on every data source (primary and
 * replicas; `buildDataSourceOptions`):
 *
 * - past the deadline, no statement starts: the abandoned work stops at its next query, on SQLite
 *   as on MySQL (a ROLLBACK still runs); on MySQL the connection it held is destroyed, since the
 *   work may have set session state for the statement it no longer runs;
 * - on MySQL/MariaDB, a statement running when the deadline passes is cancelled
 *   (`KILL QUERY <thread id>` from another connection, QueryCanceller), and its connection is
 *   destroyed when the statement ends, never given back to the pool: a late KILL could otherwise
 *   reach another request's statement on it.
 *
 * Without a running deadline (background work, a report past its first byte) it does nothing.
 * A request that metered its reads (common/deadline/read-meter.ts: an expensive read's cost)
 * gets each statement's rows counted.
 */
@EventSubscriber()
export class DeadlineSubscriber implements EntitySubscriberInterface {
  beforeQuery(event: BeforeQueryEvent<unknown>): void {
    const meter = currentMeter();
    if (meter && event.queryRunner) METERED.set(event.queryRunner, meter);
    const deadline = currentDeadline();
    if (!deadline) return;
    const runner = event.queryRunner;
    const connection = connectionOf(runner);
    const threadId = connection?.threadId;
    if (deadline.expired && !UNDOING.test(event.query)) {
      // The abandoned work may have left session state for its next statement (the feed's
      // `SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED`): its connection is not reused.
      if (typeof threadId === 'number') connection?.destroy?.();
      deadline.throwIfExpired();
    }
    if (!deadline.running || !runner || !connection || typeof threadId !== 'number') return;
    const cancel = (): void => {
      CANCELLED.add(connection);
      cancellerOf(runner.connection)?.cancel(threadId);
    };
    deadline.signal.addEventListener('abort', cancel, { once: true });
    WATCHED.set(runner, () => deadline.signal.removeEventListener('abort', cancel));
  }

  afterQuery(event: AfterQueryEvent<unknown>): void {
    const runner = event.queryRunner;
    if (!runner) return;
    const meter = METERED.get(runner);
    METERED.delete(runner);
    if (meter && Array.isArray(event.rawResults)) meter.rows += event.rawResults.length;
    WATCHED.get(runner)?.();
    WATCHED.delete(runner);
    const connection = connectionOf(runner);
    if (connection && CANCELLED.has(connection)) connection.destroy?.();
  }
}
