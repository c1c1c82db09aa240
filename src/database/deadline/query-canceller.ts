import { Logger } from '@nestjs/common';
import { type Connection, createConnection } from 'mysql2';

/** The server's answer when the thread has ended already: nothing left to cancel. */
const NO_SUCH_THREAD = 'ER_NO_SUCH_THREAD';

/**
 * Cancels running statements of one MySQL/MariaDB server with `KILL QUERY <thread id>` (decision
 * 27.3), sent over a connection of its own, outside the pool (which may be exhausted by the very
 * queries to cancel). The connection opens on the first cancellation and closes when none is
 * pending; each step is bounded by `timeoutMs`. Best effort: a connection that fails is logged
 * once and dropped (the next cancellation opens another), and the statements it could not cancel
 * stay bounded by DATABASE_QUERY_TIMEOUT_MS.
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
      if (this.connection !== connection) return;
      if (error && error.code !== NO_SUCH_THREAD) {
        this.fail(connection, error.code ?? error.message);
        return;
      }
      if (--this.pending > 0) return;
      this.connection = undefined;
      connection.end(() => undefined);
    });
  }

  private open(): Connection {
    const connection = createConnection({ uri: this.uri, connectTimeout: this.timeoutMs });
    connection.on('error', (error: NodeJS.ErrnoException) =>
      this.fail(connection, error.code ?? error.message),
    );
    return connection;
  }

  private fail(connection: Connection, reason: string): void {
    if (this.connection !== connection) return;
    this.logger.warn(
      `Queries past their request's deadline could not be cancelled (${reason}); ` +
        'DATABASE_QUERY_TIMEOUT_MS still bounds them',
    );
    this.connection = undefined;
    this.pending = 0;
    connection.destroy();
  }
}
