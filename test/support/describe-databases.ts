import { DatabaseKind } from '../../src/database/data-source.options';
import { createTestDatabase, TestDatabase, testDatabaseKinds } from './test-database';

/**
 * Runs a block of end-to-end tests once per database kind (SQLite always, MariaDB when
 * TEST_DATABASE_URL is set), each on a fresh database created in beforeAll. `only` narrows the
 * kinds, for a block whose subject does not depend on the database.
 */
export function describeEachDatabase(
  title: string,
  body: (ctx: { get db(): TestDatabase; kind: DatabaseKind }) => void,
  only?: readonly DatabaseKind[],
): void {
  for (const kind of testDatabaseKinds().filter((k) => !only || only.includes(k))) {
    describe(`${title} [${kind === 'mysql' ? 'mariadb' : kind}]`, () => {
      let database: TestDatabase | undefined;
      beforeAll(async () => {
        database = await createTestDatabase(kind);
      });
      afterAll(async () => {
        await database?.drop();
      });
      body({
        kind,
        get db(): TestDatabase {
          if (!database) throw new Error('test database not ready');
          return database;
        },
      });
    });
  }
}
