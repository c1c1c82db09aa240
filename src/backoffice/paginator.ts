import { Injectable } from '@nestjs/common';
import type { CallerClaims, ScopedToCaller } from '../common/caller-claims';
import { CursorCodec } from '../common/pagination/cursor-codec';
import { DigestCache } from '../common/pagination/digest-cache';
import type { DigestFields, VersionedDigest } from '../common/pagination/digest-versions';
import type { Page } from '../common/pagination/page.dto';
import { parsePageRequest } from '../common/pagination/page-query';
import type { RawQuery } from '../common/pagination/query-parameters';
import { type DigestEndpoint, readDigest } from './modes/digest.mode';
import { holdForArrivals } from './arrivals/hold';
import type { FeedWait } from './arrivals/waiter';
import type { Mode, ModeQuery } from './modes/mode';
import type { PagedEndpoint } from './paged-endpoint';
import { ShopScopedReaders } from './shop-scoped-reader';
import type { Source } from './source';

/** What reads a mode's slice for one caller: ShopScopedReader (or a spec's stand-in). */
export interface ModeReader extends ScopedToCaller {
  read<Q extends ModeQuery, X extends object, R extends { id: string }>(
    mode: Mode<Q, X, object>,
    source: Source<R>,
    query: Q,
  ): Promise<{ rows: R[] } & X>;
  /** Holds a request whose read found nothing (the feed's Wait); absent: never waits. */
  awaitArrivals?(
    source: Source<unknown>,
    query: ModeQuery,
    position: string,
    feed: string,
  ): FeedWait;
}

/**
 * One page of any endpoint: parse the query (and cursor) for the caller, read one slice through
 * the reader scoped to the caller (shop scope and SQL behind the wall), map the rows and let the
 * mode sign the cursor of the next call into its envelope. Framework-free, so the benchmark's raw
 * baseline runs exactly this too.
 */
export async function readPage<Q extends ModeQuery, X extends object, E extends object, R, T>(
  endpoint: PagedEndpoint<Q, X, E, R & { id: string }, T>,
  scoped: ModeReader,
  raw: RawQuery,
  cursors: CursorCodec,
): Promise<Page<T> & E> {
  const { caller } = scoped;
  const { mode, route } = endpoint;
  const request = parsePageRequest(
    raw,
    { declaration: endpoint.parameters, carried: mode.carried, check: mode.check },
    route,
    caller,
    cursors,
  );
  const query = mode.query(request);
  let slice = await scoped.read(mode, endpoint.source, query);
  const hold = mode.hold?.(query, slice);
  if (hold && scoped.awaitArrivals) {
    const waiting = scoped as Required<ModeReader>;
    const feed = route.split('/')[0];
    slice = await holdForArrivals(waiting, mode, endpoint.source, query, slice, hold, feed);
  }
  const envelope = mode.envelope(query, slice, (filters, after) =>
    cursors.encode({
      resource: route,
      subject: caller.userId,
      ...filters,
      afterTime: after.time,
      afterId: after.id,
    }),
  );
  const data = slice.rows.map((row) => endpoint.toRecord(row));
  return { data, ...envelope };
}

/** The one pagination mechanism of every paginated endpoint, in every mode, and the digests. */
@Injectable()
export class Paginator {
  constructor(
    private readonly cursors: CursorCodec,
    private readonly readers: ShopScopedReaders,
    private readonly checksums: DigestCache,
  ) {}

  read<Q extends ModeQuery, X extends object, E extends object, R extends { id: string }, T>(
    endpoint: PagedEndpoint<Q, X, E, R, T>,
    caller: CallerClaims,
    raw: RawQuery,
  ): Promise<Page<T> & E> {
    return readPage(endpoint, this.readers.for(caller), raw, this.cursors);
  }

  /**
   * The digest of a resource's list (modes/digest.mode.ts), in the version the request asks for
   * (its fields per version: `versions`): one answer, no cursor.
   */
  digest<R extends { id: string }, T extends object>(
    endpoint: DigestEndpoint<R, T>,
    versions: DigestFields,
    caller: CallerClaims,
    raw: RawQuery,
  ): Promise<VersionedDigest> {
    return readDigest(endpoint, versions, this.readers.for(caller), raw, this.checksums);
  }
}
