import { Module } from '@nestjs/common';
import { CursorCodec } from './cursor-codec';

/** Cursors. CursorCodec's CursorSecret comes from auth's KeysModule (global). */
@Module({
  providers: [CursorCodec],
  exports: [CursorCodec],
})
export class PaginationModule {}
