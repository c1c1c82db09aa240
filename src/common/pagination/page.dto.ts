import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { MAX_PAGE_LIMIT, MAX_PARAMETER_LENGTH } from '../../config/limits';
import type { Page } from './keyset-resource';

/**
 * The page envelope of a cursor endpoint, for one record class: `{ data, nextCursor }`. Each
 * resource names its page (`class SalesPageDto extends PageDto(SaleDto) {}` with an
 * `@ApiSchema`), so the document has one schema per page with the right record type.
 */
export function PageDto<T>(record: Type<T>): Type<Page<T>> {
  class RecordPage implements Page<T> {
    @ApiProperty({
      type: () => [record],
      maxItems: MAX_PAGE_LIMIT,
      description: `The records of the page, oldest first (at most Limit, at most ${MAX_PAGE_LIMIT}).`,
    })
    data!: T[];

    @ApiProperty({
      type: String,
      nullable: true,
      maxLength: MAX_PARAMETER_LENGTH,
      description:
        'Opaque cursor of the next page: pass it as Cursor, unchanged. null on the last page.',
    })
    nextCursor!: string | null;
  }
  return RecordPage;
}
