/**
 * Child process of sqlite-gc.e2e-spec.ts, run as `node --expose-gc -r swc-register <this> DIR`:
 * creates the demo database in DIR as the service's first start does, then runs many statements
 * with forced garbage collections in between. With better-sqlite3 12 on Node 24.19 and later, the
 * collector freeing a statement aborts the process (`RemoveEnvironmentCleanupHook … (env) !=
 * nullptr`); the spec expects a clean exit.
 */
import { DataSource } from 'typeorm';
import { applyBackofficeSchema } from '../../src/database/backoffice-schema';
import { buildDataSourceOptions } from '../../src/database/data-source.options';
import { seedDemoData } from '../../tools/seed/demo-data';

const ROUNDS = 200;
const STATEMENTS_PER_ROUND = 50;

async function main(dataDir: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const db = new DataSource(buildDataSourceOptions({ dataDir }));
  await db.initialize();
  await applyBackofficeSchema(db);
  await db.runMigrations({ transaction: 'each' });
  console.log(`demo database: ${await seedDemoData(db)}`);
  gc();
  let statements = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < STATEMENTS_PER_ROUND; i++) {
      // A text of its own each time: every call prepares a statement, and TypeORM's cache of
      // 100 statements lets the older ones go to the collector.
      await db.query(
        `SELECT id, sold_at FROM pos_sales WHERE id > ? ORDER BY id LIMIT ${1 + i} /* ${round} */`,
        [round],
      );
      statements++;
    }
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await db.destroy();
  gc();
  console.log(`done: ${statements} statements, ${ROUNDS} forced collections`);
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
