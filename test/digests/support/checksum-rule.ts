import { canonicalize } from 'json-canonicalize';
import { createHash } from 'node:crypto';

/** A record as the list returns it. */
export type Rec = { id: string } & Record<string, unknown>;

/** The checksum rule of docs/sync.md, written here from the rule, over the list's records. */
export function checksumOf(records: Rec[]): string {
  const hash = createHash('sha256');
  const byId = [...records].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  for (const record of byId) hash.update(`${canonicalize(record)}\n`, 'utf8');
  return hash.digest('hex');
}
