import type { Row } from '../../database/sql-reader';
import type { Source } from '../../catalogue/source';

/**
 * The drivers' rows of a SELECT built from `source`'s columns, as the source's row type: the one
 * place where driver rows become read models (typed, not copied). Sound by construction: the
 * SELECT list (selectList) and the row type (RowOf) are both derived from the same columns, so
 * the type cannot name a column the query does not select. Callers never choose the type: it is
 * the source's.
 */
export function typedRows<R>(source: Source<R>, rows: Row[]): R[] {
  void source;
  return rows as unknown[] as R[];
}
