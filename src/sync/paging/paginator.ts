import { Inject, Injectable, Optional } from '@nestjs/common';
import type { CallerClaims } from '../../common/caller-claims';
import type { RawQuery } from '../../common/query/query-parameters';
import { shopsInScope } from '../../wall/shop-scope';
import { Wall } from '../../wall/wall';
import type { DigestFields } from '../../catalogue/digest-versions';
import { ChangeSource } from '../changes/change-source';
import { DigestCache } from '../digest/digest-cache';
import type { VersionedDigest } from '../digest/day-checksums';
import { type DigestEndpoint, readDigest } from '../digest/read-digest';
import { FeedWaiters } from '../feed/feed-waiters';
import { holdForArrivals } from '../feed/hold';
import { CursorCodec } from './cursor-codec';
import type { ModeQuery } from './mode';
import type { Page } from './page.dto';
import type { PagedEndpoint } from './paged-endpoint';
import { parsePageRequest } from './page-query';

/**
 * The one pagination mechanism of every paginated endpoint, in every mode, and the digests.
 * Framework-free past its constructor, so the benchmark's raw baseline runs exactly this too.
 */
@Injectable()
export class Paginator {
  constructor(
    private readonly cursors: CursorCodec,
    private readonly wall: Wall,
    @Optional() @Inject(DigestCache) private readonly checksums: DigestCache | null = null,
    @Optional() @Inject(FeedWaiters) private readonly waiters: FeedWaiters | null = null,
    @Optional() @Inject(ChangeSource) private readonly changes: ChangeSource | null = null,
  ) {}

  /**
   * One page: parse the query (and cursor) for the caller, read one slice through the wall (shop
   * scope and SQL behind it), hold it while the mode says so (the feed's Wait), map the rows and
   * let the mode sign the cursor of the next call into its envelope.
   */
  async read<Q extends ModeQuery, X extends object, E extends object, R extends { id: string }, T>(
    endpoint: PagedEndpoint<Q, X, E, R, T>,
    caller: CallerClaims,
    raw: RawQuery,
  ): Promise<Page<T> & E> {
    const { mode, route, source } = endpoint;
    const request = parsePageRequest(
      raw,
      { declaration: endpoint.parameters, carried: mode.carried, check: mode.check },
      route,
      caller,
      this.cursors,
    );
    const query = mode.query(request);
    let slice = await this.wall.read(caller, mode, source, query);
    const hold = mode.hold?.(query, slice);
    if (hold && this.waiters) {
      const scope = shopsInScope(caller, query.shopCode ?? undefined);
      const feed = route.split('/')[0];
      const wait = this.waiters.waitFor(source.table, feed, caller.userId, scope, hold.position);
      slice = await holdForArrivals(
        wait,
        hold,
        slice,
        () => this.wall.read(caller, mode, source, query),
        (again) => mode.hold?.(query, again),
      );
    }
    const envelope = mode.envelope(query, slice, this.cursors.signer(route, caller.userId));
    const data = slice.rows.map((row) => endpoint.toRecord(row));
    return { data, ...envelope };
  }

  /**
   * The digest of a resource's list (digest/read-digest.ts), in the version the request asks for
   * (its fields per version: `versions`): one answer, no cursor.
   */
  digest<R extends { id: string }, T extends object>(
    endpoint: DigestEndpoint<R, T>,
    versions: DigestFields,
    caller: CallerClaims,
    raw: RawQuery,
  ): Promise<VersionedDigest> {
    return readDigest(
      endpoint,
      versions,
      this.wall,
      caller,
      raw,
      this.checksums ?? undefined,
      this.changes ?? undefined,
    );
  }
}
