/**
 * The digest versions (issue 42, item 5): each is a frozen set of fields per resource, the
 * members of a record its checksum covers (docs/sync.md, "Digest versions"). Version 1 is the
 * records as they were before issue 42; version 2 adds `businessDate` and the UTC instants. A
 * new field makes a new version (one more number here, and `since` in its resource's
 * declaration); an old one keeps answering as it did, so a copy built on it keeps verifying
 * until it moves on purpose.
 */
export const DIGEST_VERSIONS = [1, 2] as const;

export type DigestVersion = (typeof DIGEST_VERSIONS)[number];

/** The version a digest answers when the request names none. */
export const NEWEST_DIGEST_VERSION: DigestVersion = 2;

/**
 * A resource's fields per digest version: the record's top-level members each one covers
 * (src/app.catalogue.spec.ts checks them against the record: the newest is every field).
 */
export type DigestFields = Readonly<Record<DigestVersion, readonly string[]>>;

/**
 * What a resource declares of its digest: the version each field joined, for the fields that
 * joined after version 1 (`{ soldAtUtc: 2 }`). Every other field of the record is in every
 * version, so a new version carries each resource's fields forward by itself: a field added to
 * one resource edits that resource's declaration alone.
 */
export interface DigestDeclaration<T> {
  since?: Readonly<Partial<Record<keyof T & string, DigestVersion>>>;
}

/**
 * The fields of each digest version of a record whose fields are `fields` (its example's keys),
 * from the version each joined: a version covers the fields that joined at or before it.
 */
export function digestFieldsOf<T>(
  fields: readonly (keyof T & string)[],
  digest: DigestDeclaration<T>,
): DigestFields {
  const since = (field: keyof T & string): number => digest.since?.[field] ?? 1;
  const out = {} as Record<DigestVersion, readonly string[]>;
  for (const version of DIGEST_VERSIONS) out[version] = fields.filter((f) => since(f) <= version);
  return out;
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
