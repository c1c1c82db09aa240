import { Module } from '@nestjs/common';
import { CursorCodec } from './cursor-codec';
import { KeysetPaginator } from './keyset-paginator';

/** Cursors and pages. CursorCodec's CursorSecret comes from auth's KeysModule (global). */
@Module({
  providers: [CursorCodec, KeysetPaginator],
  exports: [KeysetPaginator],
})
export class PaginationModule {}
