import { Module } from '@nestjs/common';
import { CursorCodec } from './cursor-codec';
import { DigestCache } from './digest-cache';

/**
 * Cursors, and the digests' cache of checksums. CursorCodec's CursorSecret comes from auth's
 * KeysModule (global).
 */
@Module({
  providers: [CursorCodec, DigestCache],
  exports: [CursorCodec, DigestCache],
})
export class PaginationModule {}
