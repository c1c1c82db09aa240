import { createHash } from 'node:crypto';

/** A JSON value as the API returns it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * RFC 8785 (JSON Canonicalization Scheme) for the values the API returns. JCS writes numbers
 * and strings exactly as ECMAScript's JSON.stringify does (RFC 8785, 3.2.2.2 and 3.2.2.3), so
 * they are left to it; what JCS adds is no whitespace and object members sorted by their names'
 * UTF-16 code units (3.2.3), which is how JavaScript compares strings. Non-finite numbers are
 * not JSON and are refused, as JCS requires.
 */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new TypeError(`JCS: ${value} is not a JSON number`);
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const members = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
  return `{${members.join(',')}}`;
}

/**
 * The published day checksum (docs/sync.md): lowercase hex SHA-256 of each record's canonical
 * JSON followed by "\n", over the day's records in ascending numeric id order (the caller gives
 * them in that order). An empty day is the SHA-256 of the empty string.
 */
export function dayChecksum(records: Iterable<Json>): string {
  const hash = createHash('sha256');
  for (const record of records) hash.update(canonicalJson(record) + '\n', 'utf8');
  return hash.digest('hex');
}
