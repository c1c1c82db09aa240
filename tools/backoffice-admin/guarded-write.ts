import type { DataSource, EntityManager } from 'typeorm';
import { refused } from './admin-errors';

/** ER_TABLEACCESS_DENIED_ERROR, ER_COLUMNACCESS_DENIED_ERROR: the account may not write the table. */
const DENIED = new Set([1142, 1143]);
/** ER_NO_SUCH_TABLE: no guarded view (sql/admin-account.sql was not run). */
const NO_SUCH_TABLE = 1146;
/** ER_VIEW_CHECK_FAILED: the row is outside what the view's WITH CHECK OPTION lets through. */
const VIEW_CHECK_FAILED = 1369;

const errnoOf = (error: unknown): unknown => (error as { errno?: unknown } | null)?.errno;

/**
 * Runs a write on `table`; when the account may not write it (the account of
 * sql/admin-account.sql), on `view` instead, the view WITH CHECK OPTION that script creates to
 * let that account change only some rows. The database refusing the row (the check option, or
 * no row of the view matched) becomes `refusal` (exit 3); other errors are the table's.
 */
export async function guardedWrite(
  db: DataSource | EntityManager,
  { table, view, refusal }: { table: string; view: string; refusal: string },
  write: (target: string) => { sql: string; parameters: unknown[] },
): Promise<void> {
  const run = (target: string) => {
    const { sql, parameters } = write(target);
    return db.query<unknown>(sql, parameters);
  };
  try {
    await run(table);
    return;
  } catch (error) {
    if (!DENIED.has(errnoOf(error) as number)) throw error;
    let result: unknown;
    try {
      result = await run(view);
    } catch (viewError) {
      if (errnoOf(viewError) === NO_SUCH_TABLE) throw error;
      if (errnoOf(viewError) === VIEW_CHECK_FAILED) throw refused(refusal);
      throw viewError;
    }
    if ((result as { affectedRows?: unknown } | null)?.affectedRows === 0) throw refused(refusal);
  }
}
