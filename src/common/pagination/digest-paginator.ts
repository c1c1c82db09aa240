import { MAX_PAGE_LIMIT } from '../../config/limits';
import type { ScopedToShops } from '../caller-claims';
import { DayChecksums, DayDigest } from './day-checksums';
import { parseDigestQuery } from './digest-query';
import type { KeysetPosition, KeysetResource } from './keyset-resource';
import type { RawQuery } from './query-parameters';

/**
 * What a resource contributes to its digest: its list (the very read and mapping of the list
 * endpoint, so a checksum is always over what the list returns) and the calendar date of a
 * record (that of `soldAt`, `paidAt`, `movedAt`).
 */
export interface DigestResource<S extends ScopedToShops, R, T extends { id: string }> {
  list: KeysetResource<S, R, T>;
  dateOf(record: T): string;
}

/** The digest envelope: one entry per date of the period, in date order. */
export interface Digest {
  data: DayDigest[];
}

/**
 * The digest of one shop over a period of dates: the list's keyset read walked over the period
 * inside the service, slice after slice in (date-time, id) order, each record mapped as the list
 * maps it and folded into its date's checksum (DayChecksums). Nothing but one slice and one
 * day's lines is held at a time. A shop outside the claims gives `{ data: [] }` without a read.
 */
export async function readDigest<S extends ScopedToShops, R, T extends { id: string }>(
  resource: DigestResource<S, R, T>,
  scoped: S,
  raw: RawQuery,
): Promise<Digest> {
  const query = parseDigestQuery(raw);
  if (!scoped.covers(query.shopCode)) return { data: [] };
  const days = new DayChecksums(query.dates);
  let after: KeysetPosition | null = null;
  do {
    const slice = await resource.list.read(scoped, { ...query, after, limit: MAX_PAGE_LIMIT });
    for (const row of slice.rows) {
      const record = resource.list.toRecord(row);
      days.add(resource.dateOf(record), record.id, record);
    }
    after = slice.next;
  } while (after !== null);
  return { data: days.finish() };
}
