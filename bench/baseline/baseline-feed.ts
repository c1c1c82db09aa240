import type { Pool, PoolConnection } from 'mysql2';
import type { PrimaryReader } from '../../src/database/replicas/read-router';
import type { Row } from '../../src/database/sql-reader';

/** The SQL of one request: its statements' wall time (send to rows parsed), and how many ran. */
export interface StatementTiming {
  ms: number;
  statements: number;
}

function run(connection: PoolConnection, sql: string, params: unknown[]): Promise<Row[]> {
  return new Promise<Row[]>((resolve, reject) => {
    connection.query(sql, params, (error, rows) =>
      error ? reject(error) : resolve(rows as Row[]),
    );
  });
}

/**
 * The feeds' reads over the baseline's pool as the service does them: one pooled connection for
 * the page, the re-read as SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED (the next statement
 * only) then the statement.
 */
export function withPrimaryOf(pool: Pool, timing?: StatementTiming) {
  return <T>(work: (db: PrimaryReader) => Promise<T>): Promise<T> =>
    new Promise<PoolConnection>((resolve, reject) =>
      pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
    ).then(async (connection) => {
      const query = async (sql: string, params: unknown[]) => {
        const started = performance.now();
        try {
          return await run(connection, sql, params);
        } finally {
          if (timing) {
            timing.ms += performance.now() - started;
            timing.statements++;
          }
        }
      };
      try {
        return await work({
          query,
          uncommitted: {
            query: async (sql, params) => {
              await query('SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED', []);
              return query(sql, params);
            },
          },
        });
      } finally {
        connection.release();
      }
    });
}
