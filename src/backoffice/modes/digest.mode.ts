import { DayChecksums, type Digest } from '../../common/pagination/day-checksums';
import { parseDigestQuery } from '../../common/pagination/digest-query';
import type { RawQuery } from '../../common/pagination/query-parameters';
import { MAX_PAGE_LIMIT } from '../../config/limits';
import type { PagedEndpoint } from '../paged-endpoint';
import type { ShopScopedReader } from '../shop-scoped-reader';
import type { KeysetPosition, PageQuery } from './list.mode';

/**
 * What a resource contributes to its digest: its list endpoint (the very read and mapping of the
 * list, so a checksum is always over what the list returns) and the calendar date of a record
 * (that of `soldAt`, `paidAt`, `movedAt`).
 */
export interface DigestEndpoint<R extends { id: string }, T extends { id: string }> {
  list: PagedEndpoint<PageQuery, { next: KeysetPosition | null }, object, R, T>;
  dateOf(record: T): string;
}

/**
 * The digest of one shop over a period of dates: the list mode walked over the period inside the
 * service, through the wall (`page`), slice after slice in (date-time, id) order, each record
 * mapped as the list maps it and folded into its date's checksum (DayChecksums). Nothing but one
 * slice and one day's lines is held at a time. A shop outside the claims gives `{ data: [] }`
 * without a read. Not a paginated mode: one answer per request, no cursor.
 */
export async function readDigest<R extends { id: string }, T extends { id: string }>(
  endpoint: DigestEndpoint<R, T>,
  scoped: Pick<ShopScopedReader, 'covers' | 'page'>,
  raw: RawQuery,
): Promise<Digest> {
  const query = parseDigestQuery(raw);
  if (!scoped.covers(query.shopCode)) return { data: [] };
  const { source, toRecord } = endpoint.list;
  const days = new DayChecksums(query.dates);
  let after: KeysetPosition | null = null;
  do {
    const slice: { rows: R[]; next: KeysetPosition | null } = await scoped.page(source, {
      ...query,
      after,
      limit: MAX_PAGE_LIMIT,
    });
    for (const row of slice.rows) {
      const record = toRecord(row);
      days.add(endpoint.dateOf(record), record.id, record);
    }
    after = slice.next;
  } while (after !== null);
  return { data: days.finish() };
}
