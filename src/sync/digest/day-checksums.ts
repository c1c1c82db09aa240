import type { DigestVersion } from '../../catalogue/digest-versions';
import { createHash } from 'node:crypto';

/** The checksum of a day without records: SHA-256 of the empty string. */
export const EMPTY_DAY_CHECKSUM = createHash('sha256').digest('hex');

/** One date of a digest: how many records it holds and their checksum. */
export interface DayDigest {
  /** Shop-local calendar date, `YYYY-MM-DD`. */
  date: string;
  count: number;
  /** Lowercase hex SHA-256 (docs/sync.md, "The checksum"). */
  checksum: string;
}

/** The digest envelope: one entry per date of the period, in date order. */
export interface Digest {
  data: DayDigest[];
}

/**
 * A record as its checksum line reads it: the object the list endpoint returns with its keys in
 * RFC 8785 (JCS) order at every level (UTF-16 code-unit order), holding only strings, safe
 * integers, null, such objects and arrays of them. For such a value `JSON.stringify` writes
 * exactly the JCS canonical form: JCS orders the keys and otherwise serialises as ECMAScript's
 * JSON.stringify does. `canonicalRecord` makes it from the list's record; a spec proves it equals
 * json-canonicalize (a maintained RFC 8785 implementation) for every resource of the catalogue.
 */
export interface CanonicalRecord {
  readonly [key: string]: string | number | null | CanonicalRecord | readonly CanonicalRecord[];
}

type Canonical = CanonicalRecord[string];

/**
 * `value` rebuilt with every object's keys in JCS order: `sort()`'s default order compares UTF-16
 * code units, which is the order RFC 8785 prescribes. Arrays keep their order. A record's keys are
 * field names, never array indexes ('0'), which a JavaScript object always puts first.
 */
export function canonicalRecord(value: object): CanonicalRecord {
  return canonicalValue(value) as CanonicalRecord;
}

function canonicalValue(value: unknown): Canonical {
  if (value === null || typeof value !== 'object') return value as Canonical;
  if (Array.isArray(value)) return value.map(canonicalValue) as CanonicalRecord[];
  const source = value as Record<string, unknown>;
  const out: Record<string, Canonical> = {};
  for (const key of sortedKeys(Object.keys(source))) out[key] = canonicalValue(source[key]);
  return out;
}

/**
 * The records of a digest come from one mapper, so their objects have a handful of key lists:
 * the sorted order of the last few is kept and found again by comparing the lists (property
 * names are interned strings), which halves the cost of sorting every object's keys.
 */
const SHAPES: Array<{ keys: readonly string[]; sorted: readonly string[] }> = [];
const MAX_SHAPES = 16;

function sortedKeys(keys: string[]): readonly string[] {
  // Stryker disable next-line BlockStatement: a cache miss sorts afresh: speed, not output
  for (const shape of SHAPES) {
    // Stryker disable next-line ConditionalExpression: a cache miss sorts afresh: speed, not output
    if (sameKeys(shape.keys, keys)) return shape.sorted;
  }
  const sorted = [...keys].sort();
  SHAPES.unshift({ keys, sorted });
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a cache miss sorts afresh: speed, not output
  if (SHAPES.length > MAX_SHAPES) SHAPES.pop();
  return sorted;
}

// Stryker disable next-line BlockStatement: a cache miss sorts afresh: speed, not output
function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  // Stryker disable next-line ConditionalExpression: a cache miss sorts afresh: speed, not output
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The digest of one date from its records in ascending numeric id order: the lowercase hex
 * SHA-256 of each record's canonical JSON followed by one `\n`, fed to the hash record by record.
 */
export function dayDigest(date: string, records: readonly CanonicalRecord[]): DayDigest {
  if (records.length === 0) return { date, count: 0, checksum: EMPTY_DAY_CHECKSUM };
  const hash = createHash('sha256');
  for (const record of records) hash.update(`${JSON.stringify(record)}\n`, 'utf8');
  return { date, count: records.length, checksum: hash.digest('hex') };
}

/** A digest's answer: the version its checksums follow, then one entry per date. */
export interface VersionedDigest extends Digest {
  version: DigestVersion;
}
