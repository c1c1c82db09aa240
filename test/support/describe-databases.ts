import { DatabaseKind } from '../../src/database/data-source.options';
import { mariadb, Requirement, requires } from './requirements';
import { createTestDatabase, TestDatabase } from './test-database';

/** The kinds of database the e2e suite runs on; MariaDB needs TEST_DATABASE_URL (`mariadb`). */
const DATABASE_KINDS: DatabaseKind[] = ['sqlite', 'mysql'];

/**
 * Runs a block of end-to-end tests once per database kind, each on a fresh database created in
 * beforeAll. The MariaDB variant requires TEST_DATABASE_URL: without it, it is skipped (and
 * says so), or fails with CI=true. `requires` adds what both variants need (requirements.ts);
 * `only` narrows the kinds, for a block whose subject does not depend on the database.
 */
export function describeEachDatabase(
  title: string,
  body: (ctx: { get db(): TestDatabase; kind: DatabaseKind }) => void,
  options: { requires?: Requirement[]; only?: readonly DatabaseKind[] } = {},
): void {
  for (const kind of DATABASE_KINDS.filter((k) => !options.only || options.only.includes(k))) {
    const needs = [...(options.requires ?? []), ...(kind === 'mysql' ? [mariadb] : [])];
    requires(...needs).describe(`${title} [${kind === 'mysql' ? 'mariadb' : kind}]`, () => {
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
