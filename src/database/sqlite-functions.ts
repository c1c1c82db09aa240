import { crc32 } from 'node:zlib';

/** What of a better-sqlite3 database registers a function. */
export interface SqliteFunctionRegistry {
  function(
    name: string,
    options: { deterministic: boolean },
    fn: (value: string | number | bigint | Buffer | null) => number | null,
  ): unknown;
}

/**
 * The SQL functions of MySQL that the service's statements use and SQLite lacks: `CRC32` (the
 * digests' fingerprints, wall/sql/day-fingerprint.ts), over the value's UTF-8 text as
 * MySQL computes it; NULL gives NULL, as in MySQL.
 */
export function registerSqliteFunctions(db: SqliteFunctionRegistry): void {
  db.function('CRC32', { deterministic: true }, (value) =>
    value === null ? null : crc32(typeof value === 'object' ? value : String(value)),
  );
}
