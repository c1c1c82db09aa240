import fc from 'fast-check';
import { canonicalize } from 'json-canonicalize';
import type { CanonicalRecord } from '../day-checksums';

/** What the drivers return for the columns of a source, as fast-check generates them. */
export const sqlValues = {
  id: fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String),
  /** Any text, escapes, non-BMP characters and lone surrogates included. */
  text: fc.oneof(fc.string({ unit: 'binary' }), fc.string(), fc.constantFrom('', '"\\\n\u2028é€𝄞')),
  nullable: <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null }),
  /** A DECIMAL: mysql2's string at the column's scale (or another), better-sqlite3's number. */
  decimal: fc.oneof(
    fc
      .tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.integer({ min: 0, max: 4 }))
      .map(([units, scale]) => (Number(units) / 10 ** scale).toFixed(scale)),
    fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }),
  ),
  integer: fc.integer({ min: 0, max: 1_000_000 }),
  /** A stored DATETIME(3). */
  dateTime: fc
    .date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2099-12-31T23:59:59Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 23).replace('T', ' ')),
};

/** The keys of a value at every level, as they are written (insertion order). */
function keysOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keysOf);
  if (value === null || typeof value !== 'object') return null;
  return Object.entries(value).map(([key, v]) => [key, keysOf(v)]);
}

/**
 * Proves a resource's canonical record of a row against its list record, on generated rows:
 * `JSON.stringify(canonical(row))` is byte for byte json-canonicalize (RFC 8785) of what the list
 * returns for the row, and the canonical record's keys are already in JCS order at every level
 * (so nothing depends on an object's key order but its own).
 */
export function expectCanonicalEqualsList<R>(
  rows: fc.Arbitrary<R>,
  toRecord: (row: R) => unknown,
  canonical: (row: R) => CanonicalRecord,
): void {
  fc.assert(
    fc.property(rows, (row) => {
      const record = canonical(row);
      expect(JSON.stringify(record)).toBe(canonicalize(toRecord(row)));
      expect(keysOf(record)).toEqual(keysOf(JSON.parse(canonicalize(record))));
    }),
    { numRuns: 300 },
  );
}
