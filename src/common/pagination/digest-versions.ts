import type { Digest } from './day-checksums';

/**
 * The digest versions (issue 42, item 5): each is a frozen set of fields per resource, the
 * members of a record its checksum covers (docs/sync.md, "Digest versions"). Version 1 is the
 * records as they were before issue 42; version 2 adds `businessDate` and the UTC instants. A
 * new field makes a new version; an old one keeps answering as it did, so a copy built on it
 * keeps verifying until it moves on purpose.
 */
export const DIGEST_VERSIONS = [1, 2] as const;

export type DigestVersion = (typeof DIGEST_VERSIONS)[number];

/** The version a digest answers when the request names none. */
export const NEWEST_DIGEST_VERSION: DigestVersion = 2;

/**
 * A resource's fields per digest version: the record's top-level members each one covers
 * (src/catalogue.spec.ts checks them against the record: the newest is every field).
 */
export type DigestFields = Readonly<Record<DigestVersion, readonly string[]>>;

/** A digest's answer: the version its checksums follow, then one entry per date. */
export interface VersionedDigest extends Digest {
  version: DigestVersion;
}

/**
 * The record with only the members of `fields`, in the record's own order (the checksum writes
 * it in JCS order anyway). The mapping builds every field; a version drops the later ones.
 */
export function projectRecord(record: object, fields: readonly string[]): object {
  const source = record as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = source[field];
  return out;
}
