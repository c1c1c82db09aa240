import type { Pool, PoolConnection } from 'mysql2';
import type { Row, SqlReader } from '../../src/database/sql-reader';
import type { PrimaryReader } from '../../src/database/replicas/read-router';

function run(connection: PoolConnection, sql: string, params: unknown[]): Promise<Row[]> {
  return new Promise<Row[]>((resolve, reject) => {
    connection.query(sql, params, (error, rows) =>
      error ? reject(error) : resolve(rows as Row[]),
    );
  });
}

/**
 * The least the feed's second read can cost on a bare pool: one pooled connection, SET
 * TRANSACTION ISOLATION LEVEL READ UNCOMMITTED (the next statement only), then the statement.
 */
function readUncommitted(pool: Pool, sql: string, params: unknown[]): Promise<Row[]> {
  return new Promise<Row[]>((resolve, reject) => {
    pool.getConnection((error, connection) => {
      if (error) return reject(error);
      run(connection, 'SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED', [])
        .then(() => run(connection, sql, params))
        .then(resolve, reject)
        .finally(() => connection.release());
    });
  });
}

/** The feeds' reader over the baseline's pool: the primary is the pool's only server. */
export function primaryReaderOf(pool: Pool, reader: SqlReader): PrimaryReader {
  return {
    query: (sql, params) => reader.query(sql, params),
    uncommitted: { query: (sql, params) => readUncommitted(pool, sql, params) },
  };
}
