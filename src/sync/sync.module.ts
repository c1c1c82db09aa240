import { Module } from '@nestjs/common';
import { WallModule } from '../wall/wall.module';
import { BulkReader } from './bulk/bulk-read';
import { ChangeSource } from './changes/change-source';
import { DigestAdmission } from './digest/digest-budget';
import { DigestCache } from './digest/digest-cache';
import { FeedWaiters } from './feed/feed-waiters';
import { CursorCodec } from './paging/cursor-codec';
import { Paginator } from './paging/paginator';

/**
 * What serves the lists, feeds and digests, one of each per instance: the Paginator every
 * paginated endpoint and digest answers through, over the wall; the cursors (CursorSecret comes
 * from auth's KeysModule, global); the digests' cache of checksums and their admission (one per
 * instance for every digest route and the day close); FeedWaiters, the feed requests held by Wait;
 * ChangeSource, what changed since a cached checksum (the binary log, else the fingerprints).
 */
/** One of each per instance, for every resource's routes and the day close. */
const SERVICES = [
  Paginator,
  BulkReader,
  CursorCodec,
  DigestCache,
  DigestAdmission,
  FeedWaiters,
  ChangeSource,
];

@Module({
  imports: [WallModule],
  providers: SERVICES,
  exports: [WallModule, ...SERVICES],
})
export class SyncModule {}
