/**
 * The server's digest versions (docs/sync.md, "Digest versions"): the fields of each record a
 * day's checksum covers, per version, frozen, generated from the document's `x-digest-fields`
 * (src/generated/digests.ts). A mirror verifies with the version it was built on
 * (`mirror_state.digest_version`; none recorded: 1, a mirror built before versions existed),
 * sends it as `Version` on every digest request, and hashes its own records with only that
 * version's fields. Moving to the newest is deliberate (`newestDigests`): the days whose stored
 * records lack the new fields then differ once and are re-read.
 */
import { DIGEST_FIELDS } from '../generated/digests.js';

export { NEWEST_DIGEST_VERSION } from '../generated/digests.js';

/**
 * The fields a digest `version` of `resource` covers; a resource without a digest, or a version
 * the document does not name, is an error, never an empty or undefined field list.
 */
export function digestFields(resource: string, version: number): readonly string[] {
  const versions: Partial<Record<string, Partial<Record<number, readonly string[]>>>> =
    DIGEST_FIELDS;
  const fields = versions[resource]?.[version];
  if (!fields)
    throw new Error(`The service documents no digest version ${version} of ${resource}.`);
  return fields;
}

/** A record with only `fields` (those it has): what a digest version's checksum covers. */
export function digestRecord<T extends Record<string, unknown>>(
  record: T,
  fields: readonly string[],
): T {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field in record) out[field] = record[field];
  return out as T;
}
