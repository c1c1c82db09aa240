import { DataSource, type QueryRunner } from 'typeorm';
import { TestApp } from './test-app';

/** One statement the app sent, and the server thread (connection) it ran on. */
export interface Sent {
  sql: string;
  thread: number | undefined;
}

/**
 * Every statement of the app's query runners from now on (`DataSource.query` makes one too), in
 * the order they were answered, with the MariaDB thread id of the connection each ran on
 * (mysql2's `threadId`, the server's CONNECTION_ID(); undefined on SQLite). Undone by
 * `jest.restoreAllMocks()`.
 */
export function recordStatements(app: TestApp): Sent[] {
  const db = app.app.get(DataSource);
  const sent: Sent[] = [];
  const create = db.createQueryRunner.bind(db);
  jest.spyOn(db, 'createQueryRunner').mockImplementation((mode) => {
    const runner: QueryRunner = create(mode);
    const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    // SQLite hands out one runner for its one connection: wrap it, never change it.
    return Object.assign(Object.create(runner) as QueryRunner, {
      query: async (sql: string, ...rest: unknown[]) => {
        const result = await query(sql, ...rest);
        const connection = (runner as unknown as { databaseConnection?: { threadId?: number } })
          .databaseConnection;
        sent.push({ sql, thread: connection?.threadId });
        return result;
      },
    });
  });
  return sent;
}
