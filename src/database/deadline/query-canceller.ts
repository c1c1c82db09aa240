import { Logger } from '@nestjs/common';
import { type Connection, createConnection } from 'mysql2';

/** The server's answer when the thread has ended already: nothing left to cancel. */
const NO_SUCH_THREAD = 'ER_NO_SUCH_THREAD';

/**
 * Cancels running statements of one MySQL/MariaDB server with `KILL QUERY <thread id>` (decision
 * 27.3), sent over a connection of its own, outside the pool (which may be exhausted by the very
 * queries to cancel). The connection opens on the first cancellation and closes when none is
 * pending; each step is bounded by `timeoutMs`. Best effort: a cancellation that cannot be sent
 * is logged, and the query stays bounded by DATABASE_QUERY_TIMEOUT_MS.
 */
export class QueryCanceller {
  private readonly logger = new Logger('Database');
  private connection: Connection | undefined;
  private pending = 0;

  constructor(
    private readonly uri: string,
    private readonly timeoutMs: number,
  ) {}

  cancel(threadId: number): void {
    if (!Number.isSafeInteger(threadId) || threadId <= 0) return;
    const connection = (this.connection ??= this.open());
    this.pending++;
    connection.query({ sql: `KILL QUERY ${threadId}`, timeout: this.timeoutMs }, (error) => {
      this.pending--;
      const code = error?.code;
      if (error && code !== NO_SUCH_THREAD) {
        this.logger.warn(
          `A query past its request's deadline could not be cancelled (${code ?? error.message})`,
        );
        this.drop(connection);
        return;
      }
      if (this.pending === 0) this.drop(connection, true);
    });
  }

  private open(): Connection {
    const connection = createConnection({ uri: this.uri, connectTimeout: this.timeoutMs });
    // A broken connection fails its pending cancellations (logged above); the next one opens anew.
    connection.on('error', () => this.drop(connection));
    return connection;
  }

  private drop(connection: Connection, graceful = false): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.pending = 0;
    if (graceful) connection.end(() => undefined);
    else connection.destroy();
  }
}
