import { Deadline, DeadlineExceededError, runWithDeadline } from '../../common/deadline/deadline';
import { databaseKinds, type MigratedDatabase } from '../testing/migrated-database';
import { DeadlineSubscriber } from './deadline.subscriber';

for (const { kind, describe: describeOn, open } of databaseKinds()) {
  describeOn(`${DeadlineSubscriber.name} [${kind === 'mysql' ? 'mariadb' : kind}]`, () => {
    let database: MigratedDatabase;

    beforeAll(async () => {
      database = await open();
    });
    afterAll(async () => {
      await database?.close();
    });

    const expiredDeadline = async (): Promise<Deadline> => {
      const deadline = new Deadline(1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(deadline.expired).toBe(true);
      return deadline;
    };

    it('should run statements while the deadline runs, and without any', async () => {
      const deadline = new Deadline(5_000);
      await expect(
        runWithDeadline(deadline, () => database.db.query('SELECT 1 AS one')),
      ).resolves.toEqual([{ one: 1 }]);
      deadline.finish();
      await expect(database.db.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    });

    it('should start no statement of a request past its deadline (its work is abandoned)', async () => {
      const deadline = await expiredDeadline();
      await expect(
        runWithDeadline(deadline, () => database.db.query('SELECT 1 AS one')),
      ).rejects.toBeInstanceOf(DeadlineExceededError);
    });

    it('should still let a ROLLBACK through past the deadline', async () => {
      const runner = database.db.createQueryRunner();
      try {
        await runner.startTransaction();
        const deadline = await expiredDeadline();
        await expect(
          runWithDeadline(deadline, () => runner.rollbackTransaction()),
        ).resolves.toBeUndefined();
      } finally {
        await runner.release();
      }
    });

    if (kind !== 'mysql') return;

    /** Runs `work` on one connection of the pool, which it is handed (mysql2's, `_closing` once destroyed). */
    const onOneConnection = async (
      work: (
        runner: ReturnType<typeof database.db.createQueryRunner>,
        connection: { _closing?: boolean },
      ) => Promise<void>,
    ): Promise<void> => {
      const runner = database.db.createQueryRunner();
      try {
        await runner.connect();
        await work(
          runner,
          (runner as unknown as { databaseConnection: { _closing?: boolean } }).databaseConnection,
        );
      } finally {
        await runner.release();
      }
    };

    it('should drop the connection whose next statement it refuses (no session state reaches the pool)', () =>
      onOneConnection(async (runner, connection) => {
        await runner.query('SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED');
        const deadline = await expiredDeadline();
        await expect(
          runWithDeadline(deadline, () => runner.query('SELECT 1')),
        ).rejects.toBeInstanceOf(DeadlineExceededError);
        expect(connection._closing).toBe(true);
      }));

    it('should cancel a statement running when the deadline passes (KILL QUERY) and drop its connection', () =>
      onOneConnection(async (runner, connection) => {
        const deadline = new Deadline(300);
        const started = Date.now();
        const sleep = runWithDeadline(deadline, () => runner.query('SELECT SLEEP(5)'));
        await expect(sleep).rejects.toThrow('Query execution was interrupted');
        expect(Date.now() - started).toBeLessThan(2_500);
        expect(connection._closing).toBe(true);
      }));
  });
}
