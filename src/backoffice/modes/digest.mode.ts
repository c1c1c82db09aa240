import { canonicalRecord, dayDigest, type Digest } from '../../common/pagination/day-checksums';
import { dayBounds, parseDigestQuery } from '../../common/pagination/digest-query';
import type { RawQuery } from '../../common/pagination/query-parameters';
import type { PagedEndpoint } from '../paged-endpoint';
import type { ShopScopedReader } from '../shop-scoped-reader';
import type { KeysetPosition, PageQuery } from './list.mode';

/**
 * What a digest reads: a resource's list endpoint, its source (a record's date is that of the
 * source's `time` column: `soldAt`, `paidAt`, `movedAt`) and its mapping, whose records the
 * checksum covers exactly as the list returns them.
 */
export type DigestEndpoint<R extends { id: string }, T extends object> = PagedEndpoint<
  PageQuery,
  { next: KeysetPosition | null },
  object,
  R,
  T
>;

/**
 * The digest of one shop over a period of dates: date after date, the shop's records of that
 * date read in id order through the wall (`day`: one statement for the rows, one per
 * attachment), each row mapped as the list maps it, written with its keys in JCS order
 * (canonicalRecord) and folded into the date's checksum. Nothing but one date's rows is held at
 * a time. A shop outside the claims gives `{ data: [] }` without a read. Not a paginated mode:
 * one answer per request, no cursor.
 */
export async function readDigest<R extends { id: string }, T extends object>(
  list: DigestEndpoint<R, T>,
  scoped: Pick<ShopScopedReader, 'covers' | 'day'>,
  raw: RawQuery,
): Promise<Digest> {
  const query = parseDigestQuery(raw);
  if (!scoped.covers(query.shopCode)) return { data: [] };
  const data = [];
  for (let i = 0; i < query.dates.length; i++) {
    const rows = await scoped.day(list.source, query.shopCode, dayBounds(query, i));
    data.push(
      dayDigest(
        query.dates[i],
        rows.map((row) => canonicalRecord(list.toRecord(row))),
      ),
    );
  }
  return { data };
}
