import { Injectable } from '@nestjs/common';
import type { ScopedToCaller, ScopedToShops } from '../caller-claims';
import { CursorCodec } from './cursor-codec';
import { Digest, DigestResource, readDigest } from './digest-paginator';
import { FeedPage, FeedResource, readFeedPage } from './feed-paginator';
import type { KeysetResource, Page } from './keyset-resource';
import { parsePageQuery } from './page-query';
import type { RawQuery } from './query-parameters';

/**
 * One page of a cursor-paginated resource: parse the query (and cursor) for the caller, let the
 * resource read one slice through the reader scoped to the caller (shop scope, the keyset SQL for
 * `limit + 1` rows), map the rows and sign the next cursor. Framework-free, so the benchmark's raw
 * baseline runs exactly this too.
 */
export async function readKeysetPage<S extends ScopedToCaller, R, T>(
  resource: KeysetResource<S, R, T>,
  scoped: S,
  raw: RawQuery,
  cursors: CursorCodec,
): Promise<Page<T>> {
  const { caller } = scoped;
  const query = parsePageQuery(raw, resource.name, caller, cursors);
  const { rows, next } = await resource.read(scoped, query);
  const data = rows.map((row) => resource.toRecord(row));
  const nextCursor = next
    ? cursors.encode({
        resource: resource.name,
        subject: caller.userId,
        shopCode: query.shopCode,
        from: query.from,
        to: query.to,
        afterTime: next.time,
        afterId: next.id,
      })
    : null;
  return { data, nextCursor };
}

/**
 * The one pagination mechanism of sales, payments and cash movements: their lists, feeds and
 * digests (the list walked over a period inside the service, one checksum per date).
 */
@Injectable()
export class KeysetPaginator {
  constructor(private readonly cursors: CursorCodec) {}

  page<S extends ScopedToCaller, R, T>(
    resource: KeysetResource<S, R, T>,
    scoped: S,
    raw: RawQuery,
  ): Promise<Page<T>> {
    return readKeysetPage(resource, scoped, raw, this.cursors);
  }

  feed<S extends ScopedToCaller, R, T>(
    resource: FeedResource<S, R, T>,
    scoped: S,
    raw: RawQuery,
  ): Promise<FeedPage<T>> {
    return readFeedPage(resource, scoped, raw, this.cursors);
  }

  digest<S extends ScopedToShops, R, T extends { id: string }>(
    resource: DigestResource<S, R, T>,
    scoped: S,
    raw: RawQuery,
  ): Promise<Digest> {
    return readDigest(resource, scoped, raw);
  }
}
