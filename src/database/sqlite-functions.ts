import { createHash, type Hash } from 'node:crypto';

/** A value as better-sqlite3 hands it to a function. */
type SqliteValue = string | number | bigint | Buffer | null;

/** What of a better-sqlite3 database registers a function and an aggregate. */
export interface SqliteFunctionRegistry {
  function(
    name: string,
    options: { deterministic: boolean },
    fn: (value: SqliteValue, bits: SqliteValue) => string | null,
  ): unknown;
  aggregate(
    name: string,
    options: {
      deterministic: boolean;
      start: () => Concatenation;
      step: (state: Concatenation, value: SqliteValue) => Concatenation;
      result: (state: Concatenation) => string | null;
    },
  ): unknown;
}

/** An ordered concatenation's digest so far, and whether it holds a value (none: NULL). */
interface Concatenation {
  hash: Hash;
  empty: boolean;
}

/** MySQL's SHA2 lengths; 0 is 256. Any other gives NULL, as in MySQL. */
const SHA2_ALGORITHMS = new Map<string, string>([
  ['0', 'sha256'],
  ['224', 'sha224'],
  ['256', 'sha256'],
  ['384', 'sha384'],
  ['512', 'sha512'],
]);

/** A value's bytes as MySQL hashes them: a blob as is, anything else as its UTF-8 text. */
const bytesOf = (value: Exclude<SqliteValue, null>): Buffer | string =>
  typeof value === 'object' ? value : String(value);

/**
 * The SQL functions of MySQL that the service's statements use and SQLite lacks, for the digests'
 * fingerprints (wall/sql/day-fingerprint.ts):
 * - `SHA2(value, bits)`: the hex digest of the value's bytes, as MySQL computes it; NULL for NULL;
 * - `SHA2_CONCAT(value ORDER BY …)`, an aggregate: the SHA-256 (hex) of the group's values
 *   concatenated in that order, NULLs skipped, NULL without a value: what `SHA2(GROUP_CONCAT(value
 *   ORDER BY … SEPARATOR ''), 256)` gives on MySQL, without its length limit.
 */
export function registerSqliteFunctions(db: SqliteFunctionRegistry): void {
  db.function('SHA2', { deterministic: true }, (value, bits) => {
    const algorithm = SHA2_ALGORITHMS.get(String(bits));
    if (value === null || algorithm === undefined) return null;
    return createHash(algorithm).update(bytesOf(value)).digest('hex');
  });
  db.aggregate('SHA2_CONCAT', {
    deterministic: true,
    start: () => ({ hash: createHash('sha256'), empty: true }),
    step: (state, value) => {
      if (value !== null) {
        state.hash.update(bytesOf(value));
        state.empty = false;
      }
      return state;
    },
    result: (state) => (state.empty ? null : state.hash.digest('hex')),
  });
}
