import { Module } from '@nestjs/common';
import { KeysModule } from '../../auth/keys/keys.module';
import { CursorCodec } from './cursor-codec';
import { KeysetPaginator } from './keyset-paginator';

@Module({
  imports: [KeysModule],
  providers: [CursorCodec, KeysetPaginator],
  exports: [CursorCodec, KeysetPaginator],
})
export class PaginationModule {}
